import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "./command.js";

type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean; short?: string }>;

/** node:util's parseArgs with our error type: an unknown flag or a missing value is a usage error (exit 2). */
export const parseCommandArgs = <const T extends OptionSpec>(
  argv: readonly string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> => {
  try {
    const config = {
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
    } as const satisfies ParseArgsConfig;
    return parseArgs(config);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
};

export const oneOf = <const T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
  fallback: T,
): T => {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")} (got "${value}")`);
};

/** A flag's whole number from `min` to `max`, or `fallback` when the flag is absent. */
export const integerBetween = (
  value: string | undefined,
  flag: string,
  fallback: number,
  min: number,
  max: number,
): number => {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isSafeInteger(parsed) || parsed < min || parsed > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
  return parsed;
};

export const nonNegativeInteger = (
  value: string | undefined,
  flag: string,
  fallback: number,
  max: number,
): number => integerBetween(value, flag, fallback, 0, max);

export const positiveInteger = (value: string | undefined, flag: string, fallback: number): number => {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0)
    throw new UsageError(`${flag} must be a positive whole number`);
  return parsed;
};
