import { describe, expect, it } from "vitest";
import { emailChangedEmail, passwordResetEmail } from "./account-emails";

const TYPED = `Ada <script>alert("x")</script> & Co`;
const ESCAPED = "Ada &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co";
const url = "https://shop.example.com/user/reset?token=abc&callbackURL=%2F";

describe("the account e-mails", () => {
  it("greet a name with markup escaped in the HTML and as typed in the text", () => {
    const mail = passwordResetEmail({ to: "ada@example.com", name: TYPED, url, storeName: "Test & Store" });
    expect(mail.subject).toBe("Reset your password at Test & Store");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain(`<p>Hello ${ESCAPED},</p>`);
    expect(mail.html).toContain('<h1 style="font-size:20px">Test &amp; Store</h1>');
    expect(mail.text.startsWith(`Hello ${TYPED},\n\n`)).toBe(true);
    expect(mail.text).toContain(`Reset your password: ${url}\n`);
  });

  it("link the button and print the address to paste, escaped once", () => {
    const mail = emailChangedEmail({
      to: "ada@example.com",
      name: "Ada",
      newEmail: "new<x>@example.com",
      url,
      storeName: "Test Store",
    });
    const escapedUrl = "https://shop.example.com/user/reset?token=abc&amp;callbackURL=%2F";
    expect(mail.html).toContain(`<a href="${escapedUrl}" style="display:inline-block;`);
    expect(mail.html).toContain(">Contact us</a>");
    expect(mail.html).toContain(`Or paste this address into your browser: ${escapedUrl}</p>`);
    expect(mail.html).toContain("was changed to new&lt;x&gt;@example.com.");
    expect(mail.text).toContain("was changed to new<x>@example.com.");
  });
});
