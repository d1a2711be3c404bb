// A commander Command whose option variables (`.env("WARDEN_URL")`) come from its CLI run's env, never process.env.
import type { EventEmitter } from "node:events";
import { Command } from "commander";
import type { CliEnv } from "./io.ts";

/**
 * Commander reads `.env(…)` options from process.env; the CLI runs in-process too (tests, several runs per process),
 * so each program reads the env its run was given. Subcommands made with `.command()` inherit it.
 */
export class EnvCommand extends Command {
  readonly #env: CliEnv;

  constructor(name: string | undefined, env: CliEnv) {
    super(name);
    this.#env = env;
  }

  override createCommand(name?: string): EnvCommand {
    return new EnvCommand(name, this.#env);
  }

  /**
   * Replaces commander's own step of the same name (called once per command after the flags are parsed), with its
   * rules: a flag given on the command line, or a value set by code, wins over the variable.
   */
  _parseOptionsEnv(): void {
    for (const option of this.options) {
      const value = option.envVar === undefined ? undefined : this.#env[option.envVar];
      if (value === undefined) continue;
      const key = option.attributeName();
      const source = this.getOptionValueSource(key);
      if (this.getOptionValue(key) !== undefined && !["default", "config", "env"].includes(source ?? "")) continue;
      const emitter = this as unknown as EventEmitter;
      if (option.required || option.optional) emitter.emit(`optionEnv:${option.name()}`, value);
      else emitter.emit(`optionEnv:${option.name()}`);
    }
  }
}
