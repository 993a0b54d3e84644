/**
 * A stateful pair around a server-minted handle: `open_basket` returns an unguessable
 * `basket_id` that the other tools take back. The state stays on the server; the handle expires.
 */
import * as z from "zod";
import { ICONS } from "./icons.ts";
import { BASKET_TTL_MS, addToBasket, checkoutBasket, openBasket } from "./issue-store.ts";
import { storeCall, text, type DemoToolContext } from "./tool-kit.ts";
import { issueView } from "./tools-issues.ts";

const TTL_MINUTES = BASKET_TTL_MS / 60_000;
const BasketId = z.string().min(1).max(64).describe("The basket_id returned by open_basket, e.g. b_Jx3…");

export function registerBasketTools({ server, now, track }: DemoToolContext): void {
  track(
    "open_basket",
    server.registerTool(
      "open_basket",
      {
        title: "Open basket",
        description: `Opens an empty basket for collecting issues to act on together and returns its basket_id. Baskets expire ${TTL_MINUTES} minutes after they are opened. Use it before add_to_basket; open a new basket rather than guessing an id.`,
        inputSchema: z.object({}),
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        icons: [...ICONS.basket],
      },
      async () =>
        storeCall(() => {
          const basket = openBasket(now());
          return text(JSON.stringify({ basket_id: basket.id, expires_at: new Date(basket.expiresAt).toISOString() }, null, 2));
        }),
    ),
  );

  track(
    "add_to_basket",
    server.registerTool(
      "add_to_basket",
      {
        title: "Add to basket",
        description: `Adds one issue to an open basket; adding the same issue twice keeps one copy. Needs a basket_id from open_basket that is less than ${TTL_MINUTES} minutes old. Returns the ids now in the basket, or an error telling you to open a new basket if it expired.`,
        inputSchema: z.object({ basket_id: BasketId, issue_id: z.number().int().min(1).describe("The numeric issue id to add.") }),
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        icons: [...ICONS.basket],
      },
      async ({ basket_id, issue_id }) =>
        storeCall(() => {
          const basket = addToBasket(basket_id, issue_id, now());
          return text(
            JSON.stringify(
              { basket_id: basket.id, issue_ids: basket.issueIds, expires_at: new Date(basket.expiresAt).toISOString() },
              null,
              2,
            ),
          );
        }),
    ),
  );

  track(
    "checkout_basket",
    server.registerTool(
      "checkout_basket",
      {
        title: "Check out basket",
        description:
          "Closes a basket and returns the full issues it collected; the basket_id cannot be used afterwards. Use it once you have added everything. Returns an error if the basket is unknown or expired.",
        inputSchema: z.object({ basket_id: BasketId }),
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      async ({ basket_id }) =>
        storeCall(() => {
          const result = checkoutBasket(basket_id, now());
          return text(JSON.stringify({ basket_id: result.basketId, issues: result.issues.map(issueView) }, null, 2));
        }),
    ),
  );
}
