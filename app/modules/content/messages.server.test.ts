import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contactMessages, quoteRequests } from "~db/schema";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { submitContactMessage, submitQuoteRequest } from "./messages.server";
import { getService } from "./services.server";

/** The client address the forms were posted from. */
const CLIENT = "203.0.113.7";

const validContact = {
  name: "  Ada Lovelace ",
  email: "ada@example.com",
  phone: "(212) 555-0142",
  subject: "Licence key not received",
  message: "I ordered Norton 360 an hour ago and the key has not arrived yet.",
};

const validQuote = {
  packageName: "Growth",
  name: "Grace Hopper",
  email: "grace@example.com",
  phone: "",
  company: "Hopper Consulting",
  message: "We need a new site with a blog, about 10 pages, live by June.",
};

describe.each(drivers)("contact messages and quote requests (%s)", (driver) => {
  let database: TestDatabase;

  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(contactMessages);
    await database.db.delete(quoteRequests);
  });

  const storedMessages = () => database.db.select().from(contactMessages);
  const storedQuotes = () => database.db.select().from(quoteRequests);
  const webDevelopment = async () => {
    const service = await getService(database, "web-development");
    if (!service) throw new Error("the demo data has no web-development service");
    return service;
  };

  describe("the contact form", () => {
    it("stores a valid message, trimmed, unread, for the admin", async () => {
      const result = await submitContactMessage(database, validContact, CLIENT);
      expect(result).toMatchObject({ ok: true, stored: true });
      const rows = await storedMessages();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        name: "Ada Lovelace",
        email: "ada@example.com",
        phone: "(212) 555-0142",
        subject: "Licence key not received",
        message: validContact.message,
        readAt: null,
      });
      expect(result.ok && result.stored && result.id).toBe(rows[0]?.id);
    });

    it("stores a message without a phone number (the phone is optional)", async () => {
      const { phone: _phone, ...withoutPhone } = validContact;
      expect(await submitContactMessage(database, withoutPhone, CLIENT)).toMatchObject({
        ok: true,
        stored: true,
      });
      expect((await storedMessages())[0]?.phone).toBe("");
    });

    it("refuses an empty form with a message for every required field and stores nothing", async () => {
      const result = await submitContactMessage(
        database,
        {
          name: "",
          email: "",
          phone: "",
          subject: " ",
          message: "",
        },
        CLIENT,
      );
      expect(result).toEqual({
        ok: false,
        errors: {
          name: "Please enter your name.",
          email: "Please enter your e-mail address.",
          subject: "Please enter a subject.",
          message: "Please enter your message.",
        },
        values: { name: "", email: "", phone: "", subject: " ", message: "" },
      });
      expect(await storedMessages()).toHaveLength(0);
    });

    it("treats missing fields like empty ones", async () => {
      const result = await submitContactMessage(database, {}, CLIENT);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(Object.keys(result.errors).sort()).toEqual(["email", "message", "name", "subject"]);
      expect(await storedMessages()).toHaveLength(0);
    });

    it("refuses a bad e-mail, a bad phone, a name over 100 and a message outside 10 to 5,000 characters", async () => {
      const result = await submitContactMessage(
        database,
        {
          ...validContact,
          name: "x".repeat(101),
          email: "ada@",
          phone: "call me maybe",
          message: "Too short",
        },
        CLIENT,
      );
      expect(result).toMatchObject({
        ok: false,
        errors: {
          name: "Please keep this under 100 characters.",
          email: "Please enter a valid e-mail address, like name@example.com.",
          phone: expect.stringContaining("Please enter a phone number"),
          message: "Please write at least 10 characters.",
        },
        // What was sent comes back, to fill the form in again.
        values: { email: "ada@", phone: "call me maybe", message: "Too short" },
      });

      const long = await submitContactMessage(
        database,
        { ...validContact, message: "a".repeat(5001) },
        CLIENT,
      );
      expect(long).toMatchObject({
        ok: false,
        errors: { message: "Please keep your message under 5,000 characters." },
      });
      expect(
        await submitContactMessage(database, { ...validContact, message: "a".repeat(5000) }, CLIENT),
      ).toMatchObject({ ok: true, stored: true });
      expect(await storedMessages()).toHaveLength(1);
    });

    it("drops a post whose honeypot is filled in, as if it had been sent", async () => {
      const result = await submitContactMessage(
        database,
        {
          ...validContact,
          website: "https://spam.example",
        },
        CLIENT,
      );
      expect(result).toEqual({ ok: true, stored: false });
      expect(await storedMessages()).toHaveLength(0);
    });
  });

  describe("the quote form", () => {
    it("stores a valid request with its service and package", async () => {
      const result = await submitQuoteRequest(database, await webDevelopment(), validQuote, CLIENT);
      expect(result).toMatchObject({ ok: true, stored: true });
      const rows = await storedQuotes();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        serviceSlug: "web-development",
        packageName: "Growth",
        name: "Grace Hopper",
        email: "grace@example.com",
        phone: "",
        company: "Hopper Consulting",
        message: validQuote.message,
        handledAt: null,
      });
    });

    it("stores a request without a package, phone or company (not sure yet)", async () => {
      const result = await submitQuoteRequest(
        database,
        await webDevelopment(),
        {
          name: "Grace Hopper",
          email: "grace@example.com",
          message: "Could you recommend a package for a small bakery?",
        },
        CLIENT,
      );
      expect(result).toMatchObject({ ok: true, stored: true });
      const [row] = await database.db
        .select()
        .from(quoteRequests)
        .where(eq(quoteRequests.email, "grace@example.com"));
      expect(row).toMatchObject({ packageName: "", phone: "", company: "" });
    });

    it("refuses a package the service does not offer", async () => {
      const result = await submitQuoteRequest(
        database,
        await webDevelopment(),
        {
          ...validQuote,
          packageName: "Platinum",
        },
        CLIENT,
      );
      expect(result).toMatchObject({
        ok: false,
        errors: { packageName: expect.stringContaining("Please choose one of the packages listed") },
      });
      expect(await storedQuotes()).toHaveLength(0);
    });

    it("refuses invalid fields with a message each and stores nothing", async () => {
      const result = await submitQuoteRequest(
        database,
        await webDevelopment(),
        {
          packageName: "Starter",
          name: "",
          email: "not an address",
          company: "c".repeat(151),
          message: "short",
        },
        CLIENT,
      );
      expect(result).toMatchObject({
        ok: false,
        errors: {
          name: "Please enter your name.",
          email: "Please enter a valid e-mail address, like name@example.com.",
          company: "Please keep this under 150 characters.",
          message: "Please write at least 10 characters.",
        },
        values: { packageName: "Starter", company: "c".repeat(151) },
      });
      expect(await storedQuotes()).toHaveLength(0);
    });

    it("drops a request whose honeypot is filled in", async () => {
      const result = await submitQuoteRequest(
        database,
        await webDevelopment(),
        {
          ...validQuote,
          website: "spam",
        },
        CLIENT,
      );
      expect(result).toEqual({ ok: true, stored: false });
      expect(await storedQuotes()).toHaveLength(0);
    });
  });

  describe("limits per client", () => {
    it("a client may send ten messages and ten quote requests an hour; the next are refused with how long to wait", async () => {
      const flood = "198.51.100.23";
      const service = await webDevelopment();
      for (let i = 0; i < 10; i++) {
        expect(await submitContactMessage(database, validContact, flood)).toMatchObject({
          ok: true,
          stored: true,
        });
        expect(await submitQuoteRequest(database, service, validQuote, flood)).toMatchObject({
          ok: true,
          stored: true,
        });
      }
      const message = await submitContactMessage(database, validContact, flood);
      expect(message).toMatchObject({
        ok: false,
        errors: {},
        values: { name: validContact.name },
        limited: { message: "Too many attempts. Please wait an hour and try again." },
      });
      expect(await submitQuoteRequest(database, service, validQuote, flood)).toMatchObject({
        ok: false,
        limited: { message: "Too many attempts. Please wait an hour and try again." },
      });
      expect(await storedMessages()).toHaveLength(10);
      expect(await storedQuotes()).toHaveLength(10);
      // Another client is not held up.
      expect(await submitContactMessage(database, validContact, "198.51.100.24")).toMatchObject({ ok: true });
    });
  });
});
