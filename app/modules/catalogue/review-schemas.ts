import { z } from "zod";
import { isOneLine, ONE_LINE_MESSAGE } from "~/lib/forms";

/** A review's text bounds (the table checks the same). */
export const REVIEW_MIN = 10;
export const REVIEW_MAX = 2000;
/** The name shown with a review ("Ana M."), as the customer chose it. */
export const REVIEW_NAME_MAX = 40;
/** Approved reviews per page of a product page, newest first. */
export const REVIEWS_PER_PAGE = 10;

const RATING_MESSAGE = "Choose a rating from 1 to 5 stars.";
/** Markup of any kind (`<script>`, `<b>`, `<!-- -->`): a review is plain text, and says so instead of storing it. */
const looksLikeMarkup = (text: string) => /<\s*[a-z!/?]/i.test(text);
const PLAIN_TEXT_MESSAGE = "Write plain text: HTML tags such as <script> are not accepted.";

/** A customer's review as the form posts it: shared by the form (in the browser) and the action. */
export const reviewForm = z.object({
  rating: z.coerce
    .number({ error: RATING_MESSAGE })
    .int({ error: RATING_MESSAGE })
    .min(1, { error: RATING_MESSAGE })
    .max(5, { error: RATING_MESSAGE }),
  body: z
    .string({ error: "Write your review." })
    .trim()
    .min(1, { error: "Write your review." })
    .min(REVIEW_MIN, { error: `Write at least ${REVIEW_MIN} characters: what did you like or not?` })
    .max(REVIEW_MAX, { error: `Keep your review to ${REVIEW_MAX.toLocaleString("en-US")} characters.` })
    .refine((text) => !looksLikeMarkup(text), { error: PLAIN_TEXT_MESSAGE }),
  authorName: z
    .string({ error: "Say how your name should be shown." })
    .trim()
    .min(1, { error: "Say how your name should be shown, e.g. your first name and initial." })
    .max(REVIEW_NAME_MAX, { error: `Keep the name to ${REVIEW_NAME_MAX} characters.` })
    .refine(isOneLine, { error: ONE_LINE_MESSAGE })
    .refine((text) => !looksLikeMarkup(text), { error: PLAIN_TEXT_MESSAGE }),
});
export type ReviewInput = z.infer<typeof reviewForm>;

/** The store's public reply under a review. */
export const reviewReply = z
  .string()
  .trim()
  .min(2, { error: "Write a reply of at least 2 characters." })
  .max(1000, { error: "Keep the reply to 1,000 characters." })
  .refine((text) => !looksLikeMarkup(text), { error: PLAIN_TEXT_MESSAGE });

/** The name a review is shown with by default: the first name and the initial of the last ("Ana Maria Lopez" -> "Ana L."). */
export function defaultReviewName(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "";
  const first = words[0]!.slice(0, REVIEW_NAME_MAX - 3);
  const last = words.length > 1 ? words[words.length - 1]! : "";
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first;
}
