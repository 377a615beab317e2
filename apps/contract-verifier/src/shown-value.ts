import { redactCardData } from "@payspec/server-kit";

/** Fields whose value a report never shows, whatever it is. */
const SENSITIVE_FIELD = /cvc|cvv|passw|secret|token|api[-_]?key|card[-_]?number|^pan$/i;

/**
 * A value as a schema message shows it (`, got null`, `, got "12"`): short, card numbers masked to
 * six and four digits, a sensitive field's value never shown. Credentials the run sent are masked
 * later, with everything the report holds (RunSecrets).
 */
export function shownValue(value: unknown, instancePath: string): string {
  const field = instancePath.split("/").pop() ?? "";
  if (SENSITIVE_FIELD.test(field) && value !== null && value !== undefined)
    return "a value (not shown: a sensitive field)";
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "object" && value !== null) return "an object";
  if (typeof value === "string") {
    const clipped = value.length > 60 ? `${value.slice(0, 59)}…` : value;
    return redactCardData(JSON.stringify(clipped));
  }
  return String(value);
}
