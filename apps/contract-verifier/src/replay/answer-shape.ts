/**
 * A JSON answer's shape without its values: each object's keys with the shape of each value, an
 * array as the shape of its first item, a primitive as its type. What a cassette keeps of an answer
 * (never a value: no card data, no credential), and what a replay compares.
 */
export type Shape = string | readonly Shape[] | { readonly [key: string]: Shape };

export function shapeOf(value: unknown, depth = 0): Shape {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 || depth > 8 ? [] : [shapeOf(value[0], depth + 1)];
  if (typeof value === "object" && depth <= 8)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, shapeOf((value as Record<string, unknown>)[key], depth + 1)]),
    );
  return typeof value;
}

/** How `now` differs from `then`, at most `most` differences, each as `path: was → now`. */
export function shapeDifferences(then: Shape, now: Shape, at = "", most = 5): string[] {
  const found: string[] = [];
  const walk = (a: Shape, b: Shape, path: string) => {
    if (found.length >= most) return;
    const kind = (s: Shape) => (Array.isArray(s) ? "array" : typeof s === "object" ? "object" : (s as string));
    if (kind(a) !== kind(b)) {
      found.push(`${path || "(body)"}: ${kind(a)} → ${kind(b)}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      // An empty list says nothing of its items: only two lists with items are compared.
      if (a.length > 0 && b.length > 0) walk(a[0] as Shape, b[0] as Shape, `${path}[]`);
      return;
    }
    if (typeof a === "object" && typeof b === "object") {
      const left = a as Record<string, Shape>;
      const right = b as Record<string, Shape>;
      for (const key of Object.keys(left)) {
        if (!(key in right)) found.push(`${path}.${key}: gone`);
        else walk(left[key] as Shape, right[key] as Shape, `${path}.${key}`);
        if (found.length >= most) return;
      }
      for (const key of Object.keys(right))
        if (!(key in left) && found.length < most) found.push(`${path}.${key}: new`);
    }
  };
  walk(then, now, at);
  return found;
}
