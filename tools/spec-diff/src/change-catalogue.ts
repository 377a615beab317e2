/**
 * Every class of spec change the gate knows, with its verdict. Modelled on oasdiff's
 * breaking-changes catalogue (each check with a level), restricted to what can occur in payspec's
 * two specs, and stricter where generated payment clients break: closed request bodies and typed
 * enums. The README's table is this list; each entry's `edits` are what the tests apply to a copy of
 * each real spec to prove the gate's verdict.
 */

// biome-ignore lint/suspicious/noExplicitAny: edits reach into untyped OpenAPI documents
export type SpecDoc = any;

export type SpecName = "payments-accounts" | "card-gateway";

/** Who stops working: callers' requests get refused, generated clients stop compiling or validating, or both. */
export type Affected = "callers" | "generated clients" | "both" | "nobody";

export interface ChangeClass {
  readonly id: string;
  readonly severity: "breaking" | "safe";
  readonly affects: Affected;
  readonly why: string;
  /** The spec edit that shows it, per spec where it can occur. */
  readonly edits: Partial<Record<SpecName, (spec: SpecDoc) => void>>;
}

const schemas = (spec: SpecDoc) => spec.components.schemas;
const op = (spec: SpecDoc, path: string, method: string) => spec.paths[path][method];

export const CHANGE_CATALOGUE: readonly ChangeClass[] = [
  // Request side
  {
    id: "request.property.removed-strict",
    severity: "breaking",
    affects: "both",
    why: "The body has additionalProperties: false, so every caller that still sends the property is refused with 400, and generated types no longer accept it.",
    edits: {
      "payments-accounts": (s) => delete schemas(s).PaymentCreate.properties.reference,
      "card-gateway": (s) => delete schemas(s).CardPaymentRequest.properties.correlationId,
    },
  },
  {
    id: "request.property.removed",
    severity: "breaking",
    affects: "both",
    why: "Callers that send it are silently ignored (the data is lost) and generated types reject it at compile time.",
    edits: { "card-gateway": (s) => delete schemas(s).Reward.properties.firmRewardAmount },
  },
  {
    id: "request.property.new-required",
    severity: "breaking",
    affects: "both",
    why: "Every existing request lacks it and is refused.",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).PaymentCreate.properties.channel = { type: "string" };
        schemas(s).PaymentCreate.required.push("channel");
      },
      "card-gateway": (s) => {
        schemas(s).CardPaymentRequest.properties.merchantId = { type: "string" };
        schemas(s).CardPaymentRequest.required.push("merchantId");
      },
    },
  },
  {
    id: "request.property.became-required",
    severity: "breaking",
    affects: "both",
    why: "Requests that leave the property out were valid and are now refused.",
    edits: {
      "payments-accounts": (s) => schemas(s).PaymentCreate.required.push("description"),
      "card-gateway": (s) => schemas(s).CardPaymentRequest.required.push("installment"),
    },
  },
  {
    id: "request.enum.narrowed",
    severity: "breaking",
    affects: "both",
    why: "Requests that send a removed value are refused, and the generated union no longer has it.",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).PaymentMethod.enum = schemas(s).PaymentMethod.enum.filter((v: string) => v !== "eft");
      },
      "card-gateway": (s) => {
        schemas(s).CardPaymentCurrency.enum = ["TRY", "USD"];
      },
    },
  },
  {
    id: "request.type.changed",
    severity: "breaking",
    affects: "both",
    why: "Values of the old type are refused.",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).PaymentCreate.properties.description = { type: "integer" };
      },
      "card-gateway": (s) => {
        schemas(s).CardPaymentRequest.properties.walletMemberId = { type: "integer" };
      },
    },
  },
  ...(
    [
      [
        "maximum",
        (s: SpecDoc) => {
          schemas(s).Amount.maximum = 1_000_000;
        },
        (s: SpecDoc) => {
          schemas(s).PositiveDecimalAmount.maximum = 1000;
        },
      ],
      [
        "minimum",
        (s: SpecDoc) => {
          schemas(s).Amount.minimum = 100;
        },
        (s: SpecDoc) => {
          schemas(s).PositiveDecimalAmount.minimum = 1;
        },
      ],
      [
        "maxLength",
        (s: SpecDoc) => {
          schemas(s).PaymentCreate.properties.description.maxLength = 100;
        },
        (s: SpecDoc) => {
          schemas(s).Card.properties.cardHolderName.maxLength = 26;
        },
      ],
      [
        "minLength",
        (s: SpecDoc) => {
          schemas(s).PaymentCreate.properties.reference.minLength = 3;
        },
        (s: SpecDoc) => {
          schemas(s).Card.properties.cardAlias.minLength = 2;
        },
      ],
      [
        "maxItems",
        (s: SpecDoc) => {
          schemas(s).PaymentBatchRequest.properties.payments.maxItems = 100;
        },
        (s: SpecDoc) => {
          schemas(s).CardPaymentRequest.properties.products.maxItems = 10;
        },
      ],
      [
        "minItems",
        (s: SpecDoc) => {
          schemas(s).PaymentBatchRequest.properties.payments.minItems = 2;
        },
        (s: SpecDoc) => {
          schemas(s).CardPaymentRequest.properties.products.minItems = 2;
        },
      ],
      [
        "exclusiveMinimum",
        (s: SpecDoc) => {
          schemas(s).Amount.exclusiveMinimum = 99;
        },
        (s: SpecDoc) => {
          schemas(s).PositiveDecimalAmount.exclusiveMinimum = 0.5;
        },
      ],
      [
        "exclusiveMaximum",
        (s: SpecDoc) => {
          schemas(s).Amount.exclusiveMaximum = 1_000_000;
        },
        (s: SpecDoc) => {
          schemas(s).PositiveDecimalAmount.exclusiveMaximum = 1000;
        },
      ],
      [
        "pattern",
        (s: SpecDoc) => {
          schemas(s).PaymentCreate.properties.reference.pattern = "^[A-Z0-9-]+$";
        },
        (s: SpecDoc) => {
          schemas(s).Card.properties.cvc.pattern = "^[0-9]{3}$";
        },
      ],
      [
        "format",
        (s: SpecDoc) => {
          schemas(s).PaymentCreate.properties.reference.format = "uuid";
        },
        (s: SpecDoc) => {
          schemas(s).CardPaymentRequest.properties.correlationId.format = "uuid";
        },
      ],
    ] as const
  ).map(
    ([keyword, payments, gateway]): ChangeClass => ({
      id: `request.bound.${keyword}`,
      severity: "breaking",
      affects: "callers",
      why: `A new or tightened ${keyword} refuses requests that used to be valid.`,
      edits: { "payments-accounts": payments, "card-gateway": gateway },
    }),
  ),
  {
    id: "request.parameter.removed",
    severity: "breaking",
    affects: "both",
    why: "Callers that send it are ignored or refused, and generated clients no longer offer it.",
    edits: {
      "payments-accounts": (s) => {
        const list = op(s, "/v1/payments", "get");
        list.parameters = list.parameters.filter((p: SpecDoc) => p.name !== "status");
      },
      "card-gateway": (s) => {
        op(s, "/api/v1/general/reports/sales/daily-transactions", "get").parameters = [];
      },
    },
  },
  {
    id: "request.parameter.renamed",
    severity: "breaking",
    affects: "both",
    why: "To every caller it is a removed parameter and a new one.",
    edits: {
      "payments-accounts": (s) => {
        const limit = op(s, "/v1/payments", "get").parameters.find((p: SpecDoc) => p.name === "limit");
        limit.name = "page_size";
      },
      "card-gateway": (s) => {
        const date = op(s, "/api/v1/general/reports/sales/daily-transactions", "get").parameters[0];
        date.name = "day";
      },
    },
  },
  {
    id: "request.parameter.became-required",
    severity: "breaking",
    affects: "both",
    why: "Requests without it were valid and are now refused.",
    edits: {
      "payments-accounts": (s) => {
        op(s, "/v1/payments", "get").parameters.find((p: SpecDoc) => p.name === "limit").required = true;
      },
    },
  },
  {
    id: "request.header.new-required",
    severity: "breaking",
    affects: "both",
    why: "No existing caller sends it.",
    edits: {
      "payments-accounts": (s) => {
        op(s, "/v1/payments", "post").parameters = [
          { name: "Idempotency-Key", in: "header", required: true, schema: { type: "string" } },
        ];
      },
      "card-gateway": (s) => {
        op(s, "/api/v1/payments/card", "post").parameters = [
          { name: "X-Merchant-Id", in: "header", required: true, schema: { type: "string" } },
        ];
      },
    },
  },
  {
    id: "request.parameter.new-required",
    severity: "breaking",
    affects: "both",
    why: "No existing caller sends it.",
    edits: {
      "payments-accounts": (s) => {
        op(s, "/v1/accounts", "get").parameters = [
          { name: "currency", in: "query", required: true, schema: { type: "string" } },
        ];
      },
    },
  },
  {
    id: "security.changed",
    severity: "breaking",
    affects: "both",
    why: "Every caller authenticates the old way and is refused with 401.",
    edits: {
      "payments-accounts": (s) => {
        s.components.securitySchemes.apiKey = { type: "apiKey", in: "header", name: "X-API-Key" };
      },
      "card-gateway": (s) => {
        op(s, "/api/v1/payments/card", "post").security = [{ basicAuth: [] }];
      },
    },
  },
  {
    id: "request.content-type.changed",
    severity: "breaking",
    affects: "both",
    why: "Callers send a media type the operation no longer accepts.",
    edits: {
      "payments-accounts": (s) => {
        const body = op(s, "/v1/payments", "post").requestBody;
        body.content = { "application/x-www-form-urlencoded": body.content["application/json"] };
      },
      "card-gateway": (s) => {
        const body = op(s, "/api/v1/payments/card", "post").requestBody;
        body.content = { "application/xml": body.content["application/json"] };
      },
    },
  },
  // Response side
  {
    id: "response.property.removed",
    severity: "breaking",
    affects: "both",
    why: "Callers that read it get undefined; generated types still promise it.",
    edits: {
      "payments-accounts": (s) => delete schemas(s).Payment.properties.description,
      "card-gateway": (s) => {
        delete schemas(s).CardPayment.properties.authCode;
        schemas(s).CardPayment.required = schemas(s).CardPayment.required.filter((r: string) => r !== "authCode");
      },
    },
  },
  {
    id: "response.property.became-optional",
    severity: "breaking",
    affects: "both",
    why: "Callers rely on it being there; generated types change from T to T | undefined.",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).Payment.required = schemas(s).Payment.required.filter((r: string) => r !== "status");
      },
      "card-gateway": (s) => {
        schemas(s).CardPayment.required = schemas(s).CardPayment.required.filter((r: string) => r !== "orderId");
      },
    },
  },
  {
    id: "response.type.changed",
    severity: "breaking",
    affects: "both",
    why: "Callers parse a value of a type they do not expect.",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).Account.properties.balance = { type: "string" };
      },
      "card-gateway": (s) => {
        schemas(s).CardPayment.properties.orderId = { type: "integer" };
      },
    },
  },
  {
    id: "response.status.removed",
    severity: "breaking",
    affects: "both",
    why: "A changed or removed success status: callers and generated clients branch on the status they were promised.",
    edits: {
      "payments-accounts": (s) => {
        const responses = op(s, "/v1/payments", "post").responses;
        responses["200"] = responses["201"];
        delete responses["201"];
      },
      "card-gateway": (s) => {
        const responses = op(s, "/api/v1/payments/card", "post").responses;
        responses["201"] = responses["200"];
        delete responses["200"];
      },
    },
  },
  {
    id: "response.content-type.changed",
    severity: "breaking",
    affects: "both",
    why: "Callers decode the body as the media type they were promised (the report as .xlsx).",
    edits: {
      "payments-accounts": (s) => {
        const ok = op(s, "/v1/accounts", "get").responses["200"];
        ok.content = { "application/hal+json": ok.content["application/json"] };
      },
      "card-gateway": (s) => {
        const ok = op(s, "/api/v1/general/reports/sales/daily-transactions", "get").responses["200"];
        ok.content = { "text/csv": Object.values(ok.content)[0] };
      },
    },
  },
  {
    id: "response.enum.value-added",
    severity: "breaking",
    affects: "generated clients",
    why: "Level: breaking (oasdiff only warns). Generated types are closed unions: an exhaustive switch stops compiling and zod enums in callers' code refuse the new value. payspec's clients pass unknown values at run time, but a caller's type-checked code does not.",
    edits: {
      "payments-accounts": (s) => schemas(s).PaymentStatus.enum.push("on_hold"),
      "card-gateway": (s) => schemas(s).PaymentStatus.enum.push("REFUNDED"),
    },
  },
  {
    id: "response.bound.loosened",
    severity: "breaking",
    affects: "generated clients",
    why: "Clients that validate responses with the generated schemas refuse values beyond the old bound.",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).Pagination.properties.limit.maximum = 50_000;
      },
      "card-gateway": (s) => {
        schemas(s).MaskedCardNumber.pattern = "^[0-9*]{13,19}$";
      },
    },
  },
  // Operations
  {
    id: "operation.removed",
    severity: "breaking",
    affects: "both",
    why: "Every call to it fails.",
    edits: {
      "payments-accounts": (s) => delete s.paths["/v1/payments/batch"],
      "card-gateway": (s) => delete s.paths["/api/v1/payments/reference/{referenceId}"],
    },
  },
  {
    id: "operation.path-changed",
    severity: "breaking",
    affects: "both",
    why: "Every call to the old path fails.",
    edits: {
      "payments-accounts": (s) => {
        s.paths["/v1/account-list"] = s.paths["/v1/accounts"];
        delete s.paths["/v1/accounts"];
      },
      "card-gateway": (s) => {
        s.paths["/api/v1/payments/cards"] = s.paths["/api/v1/payments/card"];
        delete s.paths["/api/v1/payments/card"];
      },
    },
  },
  {
    id: "operation.method-changed",
    severity: "breaking",
    affects: "both",
    why: "Every call with the old method fails.",
    edits: {
      "payments-accounts": (s) => {
        s.paths["/v1/payments/{id}"].post = s.paths["/v1/payments/{id}"].delete;
        delete s.paths["/v1/payments/{id}"].delete;
      },
      "card-gateway": (s) => {
        const report = s.paths["/api/v1/general/reports/sales/daily-transactions"];
        report.post = report.get;
        delete report.get;
      },
    },
  },
  // Safe
  {
    id: "request.property.new-optional",
    severity: "safe",
    affects: "nobody",
    why: "Existing requests stay valid.",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).PaymentCreate.properties.note = { type: "string" };
      },
      "card-gateway": (s) => {
        schemas(s).CardPaymentRequest.properties.note = { type: "string" };
      },
    },
  },
  {
    id: "request.parameter.new-optional",
    severity: "safe",
    affects: "nobody",
    why: "Existing requests stay valid.",
    edits: {
      "payments-accounts": (s) => {
        op(s, "/v1/payments", "get").parameters.push({ name: "method", in: "query", schema: { type: "string" } });
      },
      "card-gateway": (s) => {
        op(s, "/api/v1/general/reports/sales/daily-transactions", "get").parameters.push({
          name: "currency",
          in: "query",
          schema: { type: "string" },
        });
      },
    },
  },
  {
    id: "request.bound.loosened",
    severity: "safe",
    affects: "nobody",
    why: "Every request that was valid still is.",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).PaymentCreate.properties.description.maxLength = 1000;
      },
      "card-gateway": (s) => {
        schemas(s).CardPaymentRequest.properties.installment.maximum = 48;
      },
    },
  },
  {
    id: "request.enum.widened",
    severity: "safe",
    affects: "nobody",
    why: "Every value that was accepted still is.",
    edits: {
      // The listing's status filter, not PaymentStatus itself: that enum is in responses too, where a new value breaks.
      "payments-accounts": (s) => {
        const status = op(s, "/v1/payments", "get").parameters.find((p: SpecDoc) => p.name === "status");
        status.schema = { type: "string", enum: [...schemas(s).PaymentStatus.enum, "on_hold"] };
      },
      "card-gateway": (s) => schemas(s).CardPaymentCurrency.enum.push("GBP"),
    },
  },
  {
    id: "response.property.added",
    severity: "safe",
    affects: "nobody",
    why: "Clients ignore fields they do not know (the response schemas are open).",
    edits: {
      "payments-accounts": (s) => {
        schemas(s).Payment.properties.fee = { type: "integer" };
      },
      "card-gateway": (s) => {
        schemas(s).CardPayment.properties.fee = { type: "number" };
      },
    },
  },
  {
    id: "operation.added",
    severity: "safe",
    affects: "nobody",
    why: "Nobody calls it yet.",
    edits: {
      "payments-accounts": (s) => {
        s.paths["/v1/ping"] = { get: { operationId: "ping", responses: { "204": { description: "Alive." } } } };
      },
      "card-gateway": (s) => {
        s.paths["/api/v1/ping"] = { get: { operationId: "ping", responses: { "204": { description: "Alive." } } } };
      },
    },
  },
  {
    id: "response.error-status.added",
    severity: "safe",
    affects: "nobody",
    why: "Clients already handle any non-2xx as an error.",
    edits: {
      "payments-accounts": (s) => {
        op(s, "/v1/accounts", "get").responses["429"] = { description: "Too many requests." };
      },
      "card-gateway": (s) => {
        op(s, "/api/v1/payments/card", "post").responses["429"] = { description: "Too many requests." };
      },
    },
  },
  {
    id: "description.edited",
    severity: "safe",
    affects: "nobody",
    why: "Words for people; nothing a client checks.",
    edits: {
      "payments-accounts": (s) => {
        s.info.description = `${s.info.description}\nEdited.`;
        op(s, "/v1/payments", "post").summary = "Create a payment (edited)";
      },
      "card-gateway": (s) => {
        s.info.description = `${s.info.description}\nEdited.`;
        schemas(s).Card.description = "The card (edited).";
      },
    },
  },
];

export function changeClass(id: string): ChangeClass {
  const found = CHANGE_CATALOGUE.find((c) => c.id === id);
  if (!found) throw new Error(`No change class ${id} in the catalogue.`);
  return found;
}
