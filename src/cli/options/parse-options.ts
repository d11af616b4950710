import { InvalidArgumentError } from "commander";

/** Commander parser of a whole number ≥ 0 (offsets, counts); anything else is a usage error. */
export function parseWholeNumber(value: string): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) throw new InvalidArgumentError("expected a whole number (0, 1, 2, …)");
  return Number(trimmed);
}

/** Commander parser of a whole number ≥ 1 (limits). */
export function parsePositiveNumber(value: string): number {
  const number = parseWholeNumber(value);
  if (number < 1) throw new InvalidArgumentError("expected a number of at least 1");
  return number;
}

/** Commander parser of a TCP port. */
export function parsePort(value: string): number {
  const port = parseWholeNumber(value);
  if (port < 1 || port > 65_535) throw new InvalidArgumentError("expected a port between 1 and 65535");
  return port;
}

/**
 * Commander parser of a comma-separated list (`--select north,south`); empty items are dropped and a list
 * with none left is a usage error.
 */
export function parseCommaList(value: string): string[] {
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  if (items.length === 0) throw new InvalidArgumentError("expected one or more comma-separated values");
  return items;
}
