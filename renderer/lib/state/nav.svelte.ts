import type { ModelLine, ShippingMethod } from '../../../electron/contract/schemas/orders.ts';
import type { Tab } from '../order-table.ts';
import { ordersView } from './orders-view.svelte.ts';

export type View = 'overview' | 'library' | 'model' | 'quote' | 'orders' | 'order' | 'order-form' | 'batch';

/** The Orders view's tabs. */
export type OrdersFilter = Tab;

/** What an order form opens with: an existing draft, or a start from a quote or a selection. */
export interface OrderFormStart {
  draftId?: string;
  models?: ModelLine[];
  country?: string;
  shippingMethod?: ShippingMethod;
  /** show what needs attention at once, and take the focus there (a Place from the list that was refused) */
  check?: boolean;
}

class Nav {
  view = $state<View>('overview');
  orderForm = $state<OrderFormStart>({});
  quoteModels = $state<ModelLine[]>([]);
  modelId = $state<string | null>(null);
  /** The order whose page is open. */
  orderId = $state<string | null>(null);
  /** The view shown before this one: a list returned to puts the focus back on what was opened from it. */
  from = $state<View | null>(null);

  private show(view: View) {
    if (view !== this.view) this.from = this.view;
    this.view = view;
  }

  /** Orders on one tab alone (the overview's counts open theirs); `go('orders')` returns to the list as it was left. */
  openOrders = (filter: OrdersFilter = 'all') => {
    ordersView.showTab(filter);
    this.show('orders');
  };

  openOrder = (orderId: string) => {
    this.orderId = orderId;
    this.show('order');
  };

  openModel = (modelId: string) => {
    this.modelId = modelId;
    this.show('model');
  };

  go = (view: View) => {
    this.show(view);
  };

  openOrderForm = (start: OrderFormStart = {}) => {
    this.orderForm = start;
    this.show('order-form');
  };

  openQuote = (models: ModelLine[] = []) => {
    this.quoteModels = models;
    this.show('quote');
  };
}

export const nav = new Nav();
