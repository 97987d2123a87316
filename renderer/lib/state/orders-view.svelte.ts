// How the Orders table was left: its filters, sort, selection and scroll. Kept while the app runs, so that
// coming back from an order's page finds the same list at the same place, with the order opened in focus.
import { noFilters, type OrderFilters, type Sort, type Tab } from '../order-table.ts';
import { emptySelection, type Selection } from '../selection.ts';

class OrdersView {
  /** whose orders these settings are for: another project starts afresh */
  projectId: string | null = null;
  filters = $state<OrderFilters>(noFilters());
  sort = $state<Sort>({ key: 'placedAt', dir: 'desc' });
  selection = $state.raw<Selection>(emptySelection());
  /** not reactive: read once as the table opens, written as it scrolls */
  scrollTop = 0;
  /** set afresh (showTab) since the table last opened: whatever project it opens in takes it as it is */
  private fresh = true;

  /** The table of another project than the one these settings were left on starts afresh. */
  forProject = (projectId: string) => {
    const fresh = this.fresh;
    this.fresh = false;
    if (projectId === this.projectId) return;
    this.projectId = projectId;
    // Just set afresh (a tab chosen from the overview, in this project): kept as it is.
    if (fresh) return;
    this.filters = noFilters();
    this.sort = { key: 'placedAt', dir: 'desc' };
    this.selection = emptySelection();
    this.scrollTop = 0;
  };

  /** Opened on one tab from elsewhere (the overview's counts, after placing an order): that tab alone, at the top. */
  showTab = (tab: Tab) => {
    this.fresh = true;
    this.filters = noFilters(tab);
    this.selection = emptySelection();
    this.scrollTop = 0;
  };

  clearFilters = () => {
    this.filters = noFilters(this.filters.tab);
  };
}

export const ordersView = new OrdersView();
