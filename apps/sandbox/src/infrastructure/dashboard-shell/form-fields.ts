import { containsCardNumber } from "@payspec/server-kit";
import type { FastifyRequest } from "fastify";

/** A text field of an urlencoded form, or undefined. */
export function formField(request: FastifyRequest, name: string): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === "string" ? value : undefined;
}

/** Every value of a repeated field (boxes ticked in a list), in order; none when absent. */
export function formFieldValues(request: FastifyRequest, name: string): string[] {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === "string");
}

/** A query parameter, undefined when absent or empty (an empty filter box means no filter). */
export function queryField(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * What a refused form shows again in a text box: what was typed, as it was typed, except text holding
 * a card number, which comes back empty (its error says why) and is never masked into something the
 * user did not type.
 */
export function typedAgain(value: string): string {
  return containsCardNumber(value) ? "" : value;
}
