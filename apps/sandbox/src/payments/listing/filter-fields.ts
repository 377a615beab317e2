import { zPaymentMethod, zPaymentStatus } from "@payspec/payments-zod";
import { z } from "zod";

/** The dashboard's listing filters as request fields: what an export or a report schedule may narrow to. */
export const listingFilterFields = {
  status: zPaymentStatus.optional(),
  method: zPaymentMethod.optional(),
  account: z
    .string()
    .regex(/^acc_[A-Za-z0-9]+$/, "an account id such as acc_try1")
    .optional(),
};
