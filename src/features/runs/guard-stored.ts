// The memory guard applied to a run's stored free text (goals, order inputs and outputs, gate context, notes, reasons).
import { AppFailure } from "../../errors";
import { metadataFields, scanFields } from "../memory";

/**
 * Throws the guard's 422 (redaction_required / pii_detected, rule ids only, no value echoed) when any of the named
 * values holds a secret, PII or a raw URL; strings are scanned as they are, anything else as `key=value` fields.
 */
export async function guardStored(values: Record<string, unknown>): Promise<void> {
  const fields = Object.entries(values).flatMap(([path, v]) =>
    typeof v === "string" ? [{ path, value: v }] : metadataFields(path, v),
  );
  if (fields.length === 0) return;
  const verdict = await scanFields(fields);
  if (!verdict.ok) throw new AppFailure({ code: verdict.code, ruleIds: verdict.ruleIds });
}
