import type { ModelLine, ShippingMethod } from '../../../electron/schemas/orders.ts';

export type View = 'overview' | 'library' | 'model' | 'quote' | 'orders' | 'order-form' | 'batch';

/** The Orders view's tabs. */
export type OrdersFilter = 'all' | 'draft' | 'outbox' | 'attention' | 'placed';

/** What an order form opens with: an existing draft, or a start from a quote or a selection. */
export interface OrderFormStart {
  draftId?: string;
  models?: ModelLine[];
  country?: string;
  shippingMethod?: ShippingMethod;
}

class Nav {
  view = $state<View>('overview');
  orderForm = $state<OrderFormStart>({});
  quoteModels = $state<ModelLine[]>([]);
  modelId = $state<string | null>(null);
  /** The tab Orders opens on; the overview's counts open theirs. */
  ordersFilter = $state<OrdersFilter>('all');

  openOrders = (filter: OrdersFilter = 'all') => {
    this.ordersFilter = filter;
    this.view = 'orders';
  };

  openModel = (modelId: string) => {
    this.modelId = modelId;
    this.view = 'model';
  };

  go = (view: View) => {
    this.view = view;
  };

  openOrderForm = (start: OrderFormStart = {}) => {
    this.orderForm = start;
    this.view = 'order-form';
  };

  openQuote = (models: ModelLine[] = []) => {
    this.quoteModels = models;
    this.view = 'quote';
  };
}

export const nav = new Nav();
