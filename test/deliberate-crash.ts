// The message of the errors tests throw to crash a Durable Object on purpose (crashRun in run-helpers.ts).
/**
 * workerd reports every broken input gate on its own stderr as an "uncaught exception", even one a test causes and
 * expects; scripts/test.mjs keeps the reports that carry this text out of `npm test`'s output and fails the run on any
 * other (scripts/runtime-reports.mjs holds the same text; its unit test checks they agree).
 */
export const DELIBERATE_CRASH = "deliberate crash by a test";
