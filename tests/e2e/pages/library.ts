import type { Page } from 'playwright-core';

export function libraryPage(page: Page) {
  return {
    view: page.getByTestId('library'),
    empty: page.getByTestId('library-empty'),
    fileInput: page.getByTestId('file-input'),
    table: page.getByTestId('model-table'),
    rows: page.getByTestId('model-row'),
    names: page.getByTestId('model-name'),
    count: page.getByTestId('library-count'),
    more: page.getByTestId('library-more'),
    search: page.getByTestId('library-search'),
    queue: page.getByTestId('upload-queue'),
    uploadItems: page.getByTestId('upload-item'),
    uploadErrors: page.getByTestId('upload-errors'),
    notice: page.getByTestId('upload-notice'),
    newFolder: page.getByTestId('new-folder'),
    folderName: page.getByTestId('folder-name'),
    saveFolder: page.getByTestId('save-folder'),
    folders: page.getByTestId('folder-item'),
    selectionBar: page.getByTestId('selection-bar'),
    quoteSelected: page.getByTestId('quote-selected'),
    moveSelected: page.getByTestId('move-selected'),
    detail: page.getByTestId('model-detail'),
    serviceRecord: page.getByTestId('service-record'),
    localFacts: page.getByTestId('local-facts'),
    viewerCanvas: page.getByTestId('viewer-canvas'),
    dimensions: page.getByTestId('viewer-dimensions'),
  };
}
