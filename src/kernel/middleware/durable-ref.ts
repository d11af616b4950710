import type { DurableMiddlewareRef } from "./middleware.js";
import { isPlainData } from "../vocabulary/plain-data.js";

/**
 * `{ durable }` for a built-in middleware whose options are plain data, else nothing: options with functions
 * (a custom `retryOn`, `trim`) cannot travel to the workflow, so such a middleware runs only in-process.
 */
export function durableRef(id: string, options: unknown): { durable?: DurableMiddlewareRef } {
  if (!isPlainData(options)) return {};
  return { durable: options === undefined ? { id } : { id, options } };
}
