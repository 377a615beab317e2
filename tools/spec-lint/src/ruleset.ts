import type { RulesetDefinition } from "@stoplight/spectral-core";
import { truthy } from "@stoplight/spectral-functions";
import { oas } from "@stoplight/spectral-rulesets";
import { assumptionReason } from "./functions/assumption-reason.js";
import { decisionsMarked } from "./functions/decisions-marked.js";
import { errorResponsesUseErrorSchema } from "./functions/error-responses-use-error-schema.js";
import { mediaHasExample } from "./functions/media-has-example.js";

const OPERATIONS = "$.paths[*][get,put,post,delete,patch,head,options]";

/** Where each seed gap is decided, per spec. The spec must mark each one with x-payspec-assumed. */
export const requiredDecisions = {
  "Payments and Accounts API": [
    "/components/schemas/Error",
    "/components/schemas/PaymentStatus",
    "/components/responses/NotCancellable",
    "/paths/~1v1~1payments/post/responses/201",
    "/paths/~1v1~1payments~1{id}/delete/responses/200",
    "/paths/~1v1~1payments~1batch/post/responses/200",
    "/components/schemas/Account/properties/balance",
  ],
  "Card Payment Gateway API": [
    "/components/schemas/AccessToken/properties/expiresIn",
    "/paths/~1api~1v1~1payments~1reference~1{referenceId}/get/responses/200",
    "/paths/~1api~1v1~1payments~1card/post",
    "/components/schemas/CardPayment",
  ],
} as const;

/** Spectral's full oas ruleset plus the payspec house rules. Every finding is an error. */
export const payspecRuleset: RulesetDefinition = {
  extends: [[oas as RulesetDefinition, "all"]],
  rules: {
    "oas3-unused-component": "error",
    "payspec-operation-summary": {
      description: "Every operation has a summary.",
      given: OPERATIONS,
      severity: "error",
      message: "{{error}}",
      then: { field: "summary", function: truthy },
    },
    "payspec-operation-tags": {
      description: "Every operation has at least one tag.",
      given: OPERATIONS,
      severity: "error",
      message: "{{error}}",
      then: { field: "tags", function: truthy },
    },
    "payspec-request-example": {
      description: "Every JSON request body has an example.",
      given: `${OPERATIONS}.requestBody.content`,
      severity: "error",
      message: "{{error}}",
      then: { function: mediaHasExample },
    },
    "payspec-response-example": {
      description: "Every JSON response body has an example.",
      given: [`${OPERATIONS}.responses[*].content`, "$.components.responses[*].content"],
      severity: "error",
      message: "{{error}}",
      then: { function: mediaHasExample },
    },
    "payspec-error-schema": {
      description: "Every 4xx/5xx response uses the API's Error schema.",
      given: `${OPERATIONS}.responses`,
      severity: "error",
      message: "{{error}}",
      resolved: false,
      then: { function: errorResponsesUseErrorSchema },
    },
    "payspec-assumption-reason": {
      description: "x-payspec-assumed carries one-line reasons.",
      given: "$..x-payspec-assumed",
      severity: "error",
      message: "{{error}}",
      resolved: false,
      then: { function: assumptionReason },
    },
    "payspec-decisions-marked": {
      description: "Every seed gap we decide is marked with x-payspec-assumed where it lives.",
      given: "$",
      severity: "error",
      message: "{{error}}",
      resolved: false,
      then: { function: decisionsMarked, functionOptions: { byTitle: requiredDecisions } },
    },
  },
};
