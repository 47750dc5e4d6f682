/** What a failure says, for a notice or an error line: its message, or itself as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
