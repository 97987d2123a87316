/** Different models one order or quote may hold: our limit (docs/api-assumptions.md, CreateOrder), the sandbox's too. */
export const MAX_MODEL_LINES = 100;
/** Copies of one model in an order: our limit (docs/api-assumptions.md, CreateOrder), the sandbox's too. */
export const MAX_QUANTITY = 10_000;
