/**
 * What to say of something thrown: an `Error`'s message, anything else as `String` writes it (a thrown string,
 * number or object). For reports and error answers that carry the reason as text.
 */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
