// The identifier clients name things with (orders, tasks, ops, runs): 1–128 printable, well-formed Unicode characters.
import { z } from "zod";

/**
 * No control, format, private-use or unassigned code points, and no lone surrogate (with the `u` flag a lone
 * surrogate is a code point of category Cs): an id that cannot be stored and read back the same is refused at creation
 * (an order id with a lone surrogate was created but could never be leased).
 */
export const WireId = z
  .string()
  .min(1)
  .max(128)
  .regex(
    /^[^\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]+$/u,
    "printable, well-formed Unicode (no control or lone surrogate characters)",
  );
