import type { ModelLine, ShippingMethod } from '../../../electron/schemas/orders.ts';

export type View = 'overview' | 'library' | 'model' | 'quote' | 'orders' | 'order-form' | 'batch';

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
