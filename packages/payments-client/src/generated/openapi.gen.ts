// generated — do not edit.
// source: specs/payments-accounts.openapi.yaml (info.version 3.0.0, sha256 85a667f1bc5373dc6610bf1ba99732f40e7b4da97c806047a8f419219c0c008b)
// regenerate with `pnpm generate`.

export type paths = {
    "/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the workspace's accounts
         * @description Returns every account of the workspace, as a plain array (no pagination).
         */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments for export
         * @description Lists the workspace's payments, oldest first, with filters and cursor pagination.
         *
         *     A listing is a snapshot taken when its first page is requested: payments created while you
         *     page through it are not added to it, so pages never overlap, never skip a record, and
         *     together hold exactly `pagination.total` records. Start a new listing to see newer payments.
         *     Statuses are part of the snapshot too: the `status` filter and every record's status are as
         *     they were when the first page was read, so a payment that completes mid-listing neither
         *     leaves nor enters it, and the pages hold exactly `pagination.total` records.
         *
         *     A cursor carries the filters and page size of the listing that produced it. Pass
         *     `next_cursor` as `cursor`, with the same filters or none; different filters with a cursor
         *     answer 400. A `limit` sent beside a cursor changes the page size from that page on.
         *     Cursors are signed: an edited or foreign cursor answers 400.
         */
        get: operations["listPayments"];
        put?: never;
        /**
         * Create a payment
         * @description Creates a payment from one account to another. A payment created through the API starts as
         *     `pending`. Both accounts must exist in the workspace, differ, and hold the payment's currency.
         */
        post: operations["createPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The payment id. */
                id: components["parameters"]["PaymentIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get a payment
         * @description Returns the payment with its current status; `completed_at` is set once it is completed. Poll this to follow a payment.
         */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        /**
         * Cancel a payment
         * @description Cancels a payment that has not started processing. Allowed only from `pending` and
         *     `approved`; the payment becomes `cancelled`. Any other state answers 409
         *     `payment_not_cancellable`, including a payment that is already cancelled.
         */
        delete: operations["cancelPayment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create up to 500 payments in one call
         * @description Creates 1 to 500 payments. Each entry is validated and processed on its own, as if it were
         *     sent to `POST /v1/payments`: a bad entry fails alone and does not affect the others. The
         *     result holds one outcome per entry, in input order.
         *
         *     The request as a whole is rejected (400) only when it is not an object with a `payments`
         *     array of 1 to 500 objects.
         */
        post: operations["createPaymentBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /**
         * @description Account id, prefixed `acc_`.
         * @example acc_9f2c4e1a7b3d
         */
        AccountId: string;
        /**
         * @description Payment id, prefixed `pay_`.
         * @example pay_7Hk2mQ9xR4tZ
         */
        PaymentId: string;
        /**
         * @description Opaque pagination cursor, prefixed `cur_`. Pass it back unchanged.
         * @example cur_eyJzIjoyLCJsIjoyfQ
         */
        Cursor: string;
        /**
         * @description ISO 4217 alphabetic currency code, for example TRY, USD or EUR.
         * @example TRY
         */
        CurrencyCode: string;
        /**
         * Format: date
         * @description A calendar date, YYYY-MM-DD.
         * @example 2026-11-21
         */
        Date: string;
        /**
         * @description How the money moves. The dashboard also offers direct debit; the API does not accept it.
         * @enum {string}
         */
        PaymentMethod: "bank_transfer" | "card" | "virtual_account" | "eft";
        /**
         * @description Where a payment is in its lifecycle. See the state table in the API description.
         * @enum {string}
         */
        PaymentStatus: "pending" | "approved" | "processing" | "settled" | "reconciled" | "cancelled" | "completed" | "failed";
        /** @description An account of the workspace. */
        Account: {
            id: components["schemas"]["AccountId"];
            /** @description Display name. */
            name: string;
            currency: components["schemas"]["CurrencyCode"];
            /** @description Current balance, a decimal number in major units (125000.5 is 125,000.50 TRY). */
            balance: number;
        };
        /** @description The fields of a new payment. */
        PaymentCreate: {
            amount: components["schemas"]["Amount"];
            currency: components["schemas"]["CurrencyCode"];
            method: components["schemas"]["PaymentMethod"];
            from_account: components["schemas"]["AccountId"];
            to_account: components["schemas"]["AccountId"];
            /**
             * @description Free text shown in statements and the dashboard, up to 500 characters. A card number in it
             *     (13 to 19 digits passing the Luhn check, in any grouping) is refused with 400
             *     `invalid_request`: card data never belongs in free text. So is a NUL character.
             */
            description?: string;
            /**
             * @description Your own reference (for example an invoice number), used for reconciliation matching. Up to
             *     140 characters. A card number in it (13 to 19 digits passing the Luhn check, in any grouping)
             *     is refused with 400 `invalid_request`, and so is a NUL character.
             */
            reference?: string;
        };
        /**
         * @description Amount in the smallest currency unit (kuruş for TRY, cents for USD). A positive integer.
         * @example 150075
         */
        Amount: number;
        /**
         * @description A payment. A create returns at least `id`, `status`, `created_at`, `amount`, `currency`,
         *     `method`, and `description` when one was supplied.
         */
        Payment: {
            id: components["schemas"]["PaymentId"];
            amount: components["schemas"]["Amount"];
            currency: components["schemas"]["CurrencyCode"];
            method: components["schemas"]["PaymentMethod"];
            from_account?: components["schemas"]["AccountId"];
            to_account?: components["schemas"]["AccountId"];
            /** @description Free text shown in statements and the dashboard. */
            description?: string;
            /** @description Your own reference, used for reconciliation matching. */
            reference?: string;
            status: components["schemas"]["PaymentStatus"];
            /**
             * Format: date-time
             * @description When the payment was created, ISO 8601 in UTC.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the payment completed, ISO 8601. Present once it is completed.
             */
            completed_at?: string;
            /**
             * Format: date-time
             * @description When the payment settled, ISO 8601. Present in exports once it is settled.
             */
            settled_at?: string;
        };
        /** @description One page of a payment listing. */
        PaymentPage: {
            data: components["schemas"]["Payment"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description Where this page stands in the listing. `next_cursor` is present exactly when `has_more` is true. */
        Pagination: {
            /** @description Total records in the listing. */
            total: number;
            /** @description Page size used. */
            limit: number;
            next_cursor?: components["schemas"]["Cursor"];
            /** @description Whether more records follow this page. */
            has_more: boolean;
        };
        /** @description Up to 500 payments to create, each with the fields of `PaymentCreate`. */
        PaymentBatchRequest: {
            /**
             * @description The entries. Each must be an object; its fields are checked against `PaymentCreate` on
             *     their own, so one bad entry fails alone (see `PaymentBatchResult`).
             */
            payments: {
                [key: string]: unknown;
            }[];
        };
        /** @description The outcome of every batch entry, in input order. */
        PaymentBatchResult: {
            /** @description How many entries were created. */
            created: number;
            /** @description How many entries failed. */
            failed: number;
            results: components["schemas"]["PaymentBatchEntryResult"][];
        };
        /** @description The outcome of one batch entry. */
        PaymentBatchEntryResult: components["schemas"]["PaymentBatchEntryCreated"] | components["schemas"]["PaymentBatchEntryFailed"];
        /** @description A batch entry that became a payment. */
        PaymentBatchEntryCreated: {
            /** @description Position of the entry in the request, from 0. */
            index: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            outcome: "created";
            payment: components["schemas"]["Payment"];
        };
        /** @description A batch entry that failed, with the reason. */
        PaymentBatchEntryFailed: {
            /** @description Position of the entry in the request, from 0. */
            index: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            outcome: "failed";
            error: components["schemas"]["Error"];
        };
        /** @description The body of every failure. */
        Error: {
            /**
             * @description Machine-readable reason. `invalid_request` (400), `account_not_found` (400, an account
             *     id that is not in the workspace), `currency_mismatch` (400, an account does not hold the
             *     payment's currency), `unauthorized` (401), `not_found` (404),
             *     `payment_not_cancellable` (409), `internal_error` (500), `service_unavailable` (503,
             *     with `Retry-After`). Treat unknown codes like the HTTP status they come with.
             * @enum {string}
             */
            code: "invalid_request" | "account_not_found" | "currency_mismatch" | "unauthorized" | "not_found" | "payment_not_cancellable" | "internal_error" | "service_unavailable";
            /** @description What was wrong and what to do, for people. */
            message: string;
            /** @description The field, parameter or header at fault, where there is one (for example `amount`, `limit`, `payments[3].currency`). */
            param?: string;
            /**
             * @description Every problem found in the request, one per field, when there is more than one or a
             *     client should show them beside its fields: fix them all before sending again. `param` and
             *     `message` still name the first.
             */
            errors?: {
                /** @description The field or parameter at fault (for example `amount`, `payments[3].currency`). */
                field: string;
                /** @description What is wrong with it, never quoting what was sent. */
                message: string;
            }[];
        };
    };
    responses: {
        /**
         * @description The request is invalid: a field, parameter or body breaks the spec, the body is not valid JSON
         *     or not `application/json`, or it is too large. `param` names what was wrong.
         */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The API key is missing, unknown or expired. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No payment with this id exists in the workspace. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The payment is past the point where it can be cancelled (any state but `pending` and `approved`). */
        NotCancellable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The service failed. Safe to retry reads; check a create with GET or the listing before retrying it. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The service cannot serve the request now (its database is out of reach, or the instance is
         *     stopping) and did nothing with it: send it again after `Retry-After` seconds. Only when the
         *     message says the outcome is unknown (the store went away while saving) may a create have been
         *     stored: look it up before sending it again.
         */
        ServiceUnavailable: {
            headers: {
                /** @description Seconds to wait before sending the request again. */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description The payment id. */
        PaymentIdPath: components["schemas"]["PaymentId"];
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    listAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace's accounts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPayments: {
        parameters: {
            query?: {
                /** @description Only payments in this status. */
                status?: components["schemas"]["PaymentStatus"];
                /** @description Start of the date range, inclusive, compared with the UTC date of `created_at`. */
                from?: components["schemas"]["Date"];
                /** @description End of the date range, inclusive, compared with the UTC date of `created_at`. */
                to?: components["schemas"]["Date"];
                /**
                 * @description Only payments whose `reference` is exactly this (your own reference, as you sent it). After a
                 *     create whose answer was lost (a timeout, a connection reset after sending), list by its
                 *     reference to learn whether it was stored before sending it again: the API has no
                 *     idempotency key.
                 * @example FTR-2026-000123
                 */
                reference?: string;
                /** @description Page size. Up to 10,000 records per page. */
                limit?: number;
                /** @description The `pagination.next_cursor` of the previous page. */
                cursor?: components["schemas"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of payments. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPayment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCreate"];
            };
        };
        responses: {
            /** @description The payment was created and is `pending`. */
            201: {
                headers: {
                    /**
                     * @description Path of the new payment.
                     * @example /v1/payments/pay_7Hk2mQ9xR4tZ
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The payment id. */
                id: components["parameters"]["PaymentIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The payment id. */
                id: components["parameters"]["PaymentIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment was cancelled. The body is the cancelled payment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NotCancellable"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPaymentBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentBatchRequest"];
            };
        };
        responses: {
            /** @description One result per entry, in input order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentBatchResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
