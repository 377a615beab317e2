/** Payments per stretch: 1,000,000 payments are under a thousand stretches. */
const STRETCH_BITS = 10;

/*
 * Stretches of 1,024 consecutive payments along a workspace's listing (by index, seq - 1): what the
 * memory store's status filter (`StatusStretches`) and search (`SearchStretches`) skip by.
 */

/** The stretch the payment at `index` is in. */
export const stretchOf = (index: number): number => index >> STRETCH_BITS;

/** The index of a stretch's first payment. */
export const firstIndexOf = (stretch: number): number => stretch << STRETCH_BITS;

/** The index of a stretch's last payment. */
export const lastIndexOf = (stretch: number): number => firstIndexOf(stretch + 1) - 1;
