// generated — do not edit.
// source: specs/card-gateway.openapi.yaml (info.version 3.0.0, sha256 a2868d6e0e30fcddcd8e88add72828af7e2dd6171048f251ed85f99f8a8421e8)
// regenerate with `pnpm generate`.

export type paths = {
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in and get an access token
         * @description Exchanges the API key and secret (HTTP Basic) for an access token. Send no body. The path has
         *     no `/api/v1` prefix.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay with a card
         * @description Charges a card after a risk check. A payment that fails the risk check is rejected
         *     automatically (400, code 6003). Cards that require 3-D Secure must use the 3-D Secure
         *     endpoint (400, code 6004), which the documentation does not show and payspec does not model.
         *     A bank decline is a recorded payment with `paymentStatus` FAILURE (200).
         *
         *     **A charge only.** `transactionType` AUTH (the default) and PREAUTH are charges made here.
         *     VOID, REFUND and POSTAUTH are a cancellation, a refund and the capture of a pre-authorization:
         *     they belong to the gateway's cancellation and refund endpoint, which the documentation does
         *     not show and payspec does not model, and are answered 400 with code 6001 naming
         *     `transactionType`. None is ever charged.
         *
         *     **referenceId is the idempotency key.** Sending the same `referenceId` again with the same
         *     request never charges twice: it returns the original payment. The same `referenceId` with a
         *     different request answers 400 with code 6002.
         */
        post: operations["createCardPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/reference/{referenceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment by your reference
         * @description Returns the payment made with this `referenceId`. Risk-rejected requests record no payment and are not found.
         */
        get: operations["getPaymentByReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/general/reports/sales/daily-transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the day's successful transactions
         * @description Returns every successful transaction of `date` as an .xlsx spreadsheet with one header row and
         *     one row per transaction. The twelve column headers, in order, are listed in
         *     `x-report-columns`, each with the type of its cells. A day without transactions gives the
         *     header row only.
         */
        get: operations["getDailyTransactionsReport"];
        put?: never;
        post?: never;
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
        /** @description The body of every failure. */
        Error: {
            /**
             * @description Application error code. 6001 is an invalid request; see the table in the API description.
             * @example 6001
             */
            code: number;
            /** @description What was wrong. */
            message: string;
        };
        /** @description A new access token. */
        AccessToken: {
            /** @description Send as `Authorization: Bearer <accessToken>`. */
            accessToken: string;
            /** @description Seconds until the token expires. Clients must still expect a 401 at any time and log in again. */
            expiresIn?: number;
        };
        /**
         * @description Currency code. ISO 4217 numeric codes: TRY 949, USD 840, EUR 978, GBP 826. The card payment
         *     endpoint accepts only TRY, USD and EUR (see `CardPaymentCurrency`).
         * @enum {string}
         */
        Currency: "TRY" | "USD" | "EUR" | "GBP";
        /**
         * @description The currencies the card payment endpoint supports, a subset of `Currency`.
         * @enum {string}
         */
        CardPaymentCurrency: "TRY" | "USD" | "EUR";
        /**
         * @description AUTH (authorization, the default), PREAUTH (pre-authorization), POSTAUTH (pre-authorization capture), VOID (cancellation), REFUND.
         * @enum {string}
         */
        TransactionType: "AUTH" | "PREAUTH" | "POSTAUTH" | "VOID" | "REFUND";
        /**
         * @description SUCCESS, FAILURE, WAITING, INIT_THREEDS (3-D Secure started), CALLBACK_THREEDS (3-D Secure callback), CANCELLED, COMPLETED, PARTIALLY_REFUNDED.
         * @enum {string}
         */
        PaymentStatus: "SUCCESS" | "FAILURE" | "WAITING" | "INIT_THREEDS" | "CALLBACK_THREEDS" | "CANCELLED" | "COMPLETED" | "PARTIALLY_REFUNDED";
        /** @description A decimal amount in major units (1250.5 is 1,250.50), at most 999,999,999.99. */
        DecimalAmount: number;
        /**
         * @description Local date and time, yyyy-MM-dd HH:mm:ss (Europe/Istanbul).
         * @example 2026-11-21 14:32:05
         */
        LocalDateTime: string;
        /**
         * @description A card number masked to its first six and last four digits, the rest as `*`.
         * @example 552879******0008
         */
        MaskedCardNumber: string;
        /**
         * @description A card payment. Text fields must hold only characters XML 1.0 allows (no control characters
         *     but tab and line breaks, no U+FFFE or U+FFFF, no lone surrogates): they end up in the daily
         *     .xlsx report, so such text answers 400/6001 naming the field. A card number belongs in
         *     `card.cardNumber` only: one in any other text (the holder's name, a product name, an
         *     additional parameter; 13 to 19 digits passing the Luhn check, in any grouping) answers
         *     400/6001 naming the field, never echoing the number.
         */
        CardPaymentRequest: {
            /** @description Unique id for tracking the operation. Echoed in the response. */
            correlationId?: string;
            /**
             * Format: uuid
             * @description Unique reference from your system. Also the idempotency key. Compared case-insensitively
             *     (a UUID's canonical form is lower case), and answered in lower case.
             * @example 3f1c9a52-7b4e-4d2a-9c61-2e8f5b7a1d04
             */
            referenceId: string;
            amount: components["schemas"]["PositiveDecimalAmount"];
            finalAmount: components["schemas"]["PositiveDecimalAmount"];
            /** @description Amount taken from the customer's wallet. */
            walletAmount: number;
            /**
             * @description Installment count; 1 means a single payment. At most 36.
             * @default 1
             */
            installment?: number;
            /**
             * Format: ipv4
             * @description The customer's real IPv4 address.
             * @example 85.105.34.12
             */
            clientIpAddress: string;
            /** @description The wallet owner's member id in your system, when a wallet is used. */
            walletMemberId?: string;
            currency: components["schemas"]["CardPaymentCurrency"];
            /**
             * @description Defaults to AUTH. This endpoint charges AUTH and PREAUTH; VOID, REFUND and POSTAUTH are answered 400 (code 6001).
             * @default AUTH
             */
            transactionType?: components["schemas"]["TransactionType"];
            card: components["schemas"]["Card"];
            /** @description At least one product. */
            products: components["schemas"]["Product"][];
            /** @description Extra parameters. */
            additionalParams?: {
                [key: string]: string;
            };
            reward?: components["schemas"]["Reward"];
        };
        /** @description A decimal amount of at least 0.01 and at most 999,999,999.99, in major units. */
        PositiveDecimalAmount: number;
        /** @description The card to charge. Never logged, stored or echoed in full. */
        Card: {
            /** @description Your name for the card. */
            cardAlias?: string;
            /** @description Name as printed on the card. Not blank, and only characters XML 1.0 allows. */
            cardHolderName: string;
            /** @description 13 to 19 digits. */
            cardNumber: string;
            /** @description Two-digit year, YY. */
            expireYear: string;
            /** @description Month, 01 to 12. */
            expireMonth: string;
            /** @description 3 or 4 digits. */
            cvc: string;
        };
        /** @description A product in the basket. */
        Product: {
            /** @description Product name. Not blank, and only characters XML 1.0 allows. */
            name: string;
            /** @description The product's id in your system. */
            externalId?: string;
            price: components["schemas"]["PositiveDecimalAmount"];
            /** @description Amount due to the sub-merchant. */
            subMerchantPrice?: number;
            /** @description The sub-merchant's member id. */
            subMerchantMemberId?: string;
        };
        /** @description Reward (points) usage. */
        Reward: {
            /** @description Reward amount from the card's points. */
            cardRewardAmount: number;
            /** @description Reward amount funded by the firm, or null. */
            firmRewardAmount?: number | null;
        };
        /** @description The envelope of a card payment. */
        CardPaymentResponse: {
            /** @description Outcome for people. */
            message: string;
            response: components["schemas"]["CardPayment"];
        };
        /** @description A processed card payment. Every field is present; fields without a value are null. */
        CardPayment: {
            /** @description Payment id; equals `transactionId`. */
            id: string;
            /** @description Transaction id. */
            transactionId: string;
            createdDate: components["schemas"]["LocalDateTime"];
            amount: components["schemas"]["DecimalAmount"];
            finalAmount: components["schemas"]["DecimalAmount"];
            walletAmount: components["schemas"]["DecimalAmount"];
            currency: components["schemas"]["Currency"];
            /** @description Installment count. */
            installment: number;
            /** @description Echo of the request's correlationId. */
            correlationId: string | null;
            /**
             * Format: uuid
             * @description Echo of the request's referenceId.
             */
            referenceId: string;
            /** @description Terminal configuration used. */
            usedTerminalInfo: string;
            /** @description Reward usage, or null. */
            reward: components["schemas"]["Reward"] | null;
            source: components["schemas"]["Source"];
            paymentStatus: components["schemas"]["PaymentStatus"];
            transactionType: components["schemas"]["TransactionType"];
            /** @description Bank approval code; null when the bank declined. */
            authCode: string | null;
            /** @description Bank host reference; null when the bank declined. */
            hostReferenceNo: string | null;
            /** @description Order id. */
            orderId: string;
            /** @description Card holder name as the bank returned it. */
            bankCardHolderName: string;
            /** @description Bank code. */
            bankCode: string;
            cardDetails: components["schemas"]["CardDetails"];
            products: components["schemas"]["PaymentProduct"][];
            /**
             * @description Risk check result. Observed value APPROVED; the full set is not shown, so expect others.
             * @example APPROVED
             */
            riskAssessment: string;
        };
        /**
         * @description Where the payment came from. Observed value API; the full set is not shown, so expect others.
         * @example API
         */
        Source: string;
        /** @description The card as the bank knows it. The number is masked. */
        CardDetails: {
            /** @description Card holder name. */
            cardHolderName: string;
            cardNumber: components["schemas"]["MaskedCardNumber"];
            /** @description Card program brand (for example BONUS, AXESS, WORLD). */
            cardBrand: string;
            /** @description Issuing bank. */
            cardBank: string;
            /** @description Card scheme (for example VISA, MASTERCARD, TROY). */
            cardSchema: string;
        };
        /** @description A product of a processed payment. */
        PaymentProduct: {
            /**
             * Format: uuid
             * @description Product line id.
             */
            id: string;
            /** @description Product name. */
            name: string;
            /** @description The product's id in your system, or null. */
            externalId: string | null;
            price: components["schemas"]["DecimalAmount"];
            /**
             * @description Product status. Observed value PENDING; the full set is not shown, so expect others.
             * @example PENDING
             */
            status: string;
            /** @description Commission rate applied, in percent. */
            commissionRate: number;
        };
        /** @description The envelope of a lookup by reference. */
        PaymentLookupResponse: {
            /** @description Outcome for people. */
            message: string;
            response: components["schemas"]["PaymentLookup"];
        };
        /** @description A payment found by its reference. */
        PaymentLookup: {
            /** @description Payment id. */
            id: string;
            amount: components["schemas"]["DecimalAmount"];
            finalAmount: components["schemas"]["DecimalAmount"];
            currency: components["schemas"]["Currency"];
            /** @description Installment count. */
            installment: number;
            /**
             * Format: uuid
             * @description The payment's referenceId.
             */
            referenceId: string;
            /**
             * @description Payment type. Observed value CARD; the full set is not shown, so expect others.
             * @example CARD
             */
            paymentType: string;
            source: components["schemas"]["Source"];
            paymentStatus: components["schemas"]["PaymentStatus"];
            transactionType: components["schemas"]["TransactionType"];
            /** @description Bank approval code; null when the bank declined. */
            authCode: string | null;
            /** @description Order id. */
            orderId: string;
            products: components["schemas"]["PaymentProduct"][];
            cardDetails: components["schemas"]["LookupCardDetails"];
        };
        /** @description The card of a looked-up payment. */
        LookupCardDetails: {
            /**
             * @description The card number masked to its last four digits; the first six may also show.
             * @example 552879******0008
             */
            cardNumber: string;
            /** @description Card holder name. */
            cardHolderName: string;
        };
        /** @description One row of the daily transactions report, keyed by field; x-report-columns gives the headers. */
        DailyTransactionsReportRow: {
            /** @description Creation date and time, yyyy-MM-dd HH:mm:ss. */
            createdDate: components["schemas"]["LocalDateTime"];
            /** @description Transaction id. */
            transactionId: string;
            /** @description Order id. */
            orderId: string;
            /** @description Payment status; SUCCESS in this report. */
            status: components["schemas"]["PaymentStatus"];
            /** @description Amount, in major units. */
            amount: components["schemas"]["DecimalAmount"];
            /** @description Currency code. */
            currency: components["schemas"]["Currency"];
            /** @description Commission charged, in major units; never more than Tutar. */
            commission: number;
            /** @description Card number, masked to its first six and last four digits. */
            cardNumber: components["schemas"]["MaskedCardNumber"];
            /** @description Card holder. */
            cardHolderName: string;
            /** @description Installment count. */
            installment: number;
            /** @description Bank approval code. */
            authCode: string;
            /**
             * Format: uuid
             * @description The payment's referenceId.
             */
            referenceId: string;
        };
    };
    responses: {
        /** @description Invalid request or validation failure. The message names the field. Malformed JSON, a body that is not `application/json` and an oversized body are answered the same way. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Authentication failed. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Access denied. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Record not found. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Server error. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The gateway cannot serve the request now (its store is out of reach, or the instance is
         *     stopping) and did nothing with it: send it again after `Retry-After` seconds (a card payment
         *     with the same `referenceId`, which never charges twice).
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
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The access token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessToken"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createCardPayment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CardPaymentRequest"];
            };
        };
        responses: {
            /** @description The payment was processed. Check `paymentStatus`: SUCCESS, or FAILURE for a bank decline. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardPaymentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPaymentByReference: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `referenceId` sent with the card payment. Not blank; no NUL and no lone surrogate (text no lookup can match). */
                referenceId: string;
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
                    "application/json": components["schemas"]["PaymentLookupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDailyTransactionsReport: {
        parameters: {
            query: {
                /**
                 * @description The day, yyyy-MM-dd.
                 * @example 2026-11-21
                 */
                date: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report file. */
            200: {
                headers: {
                    /**
                     * @description Suggested file name.
                     * @example attachment; filename="daily-transactions-2026-11-21.xlsx"
                     */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
