import { describe, expect, it } from "vitest";
import { DiscoveredIds } from "../src/discovered-ids.js";

describe("DiscoveredIds", () => {
  const ids = new DiscoveredIds();
  ids.harvest("/api/admin/feature-types", { types: [{ id: "release" }, { id: "experiment" }] });
  ids.harvest("/api/admin/addons", { addons: [{ id: 7, provider: "webhook" }] });
  ids.harvest("/bookings", [{ id: "b-1", tripId: "t-9" }]);

  it("fills a parameter called just id only from its own collection, never from another's objects", () => {
    expect(ids.candidates("/api/admin/addons/{id}", "id")).toEqual(["7"]);
    expect(ids.candidates("/api/admin/segments/{id}", "id")).toEqual([]);
  });

  it("fills a parameter that names its kind from a field of that name anywhere, then from its collection", () => {
    expect(ids.candidates("/trips/{tripId}", "tripId")).toEqual(["t-9"]);
    expect(ids.candidates("/bookings/{bookingId}", "bookingId")).toEqual(["b-1"]);
  });

  it("reads a collection listed with a trailing slash (Platformatic's /movies/) as the one its items hang from", () => {
    const listed = new DiscoveredIds();
    listed.harvest("/movies/", [{ id: 4, title: "Kış Uykusu" }]);
    expect(listed.candidates("/movies/{id}", "id")).toEqual(["4"]);
  });
});
