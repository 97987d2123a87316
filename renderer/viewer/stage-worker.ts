// The Web Worker that draws a preview on the canvas its page transferred (remote-stage.ts), so that
// building, uploading and drawing a large model never hold up the page: typing, scrolling and progress
// go on while it turns. The same script, sent no canvas, draws the library's thumbnails.
import { InputSurface } from './input-relay.ts';
import type { SizeLabel } from './size-box.ts';
import { createStage, type Stage } from './stage.ts';
import type { FromStage, ToStage } from './stage-protocol.ts';
import { renderThumbnail } from './thumbnail-render.ts';

const scope = self as unknown as { onmessage: ((event: MessageEvent<ToStage>) => void) | null; postMessage(message: FromStage): void; close(): void };
const post = (message: FromStage) => scope.postMessage(message);

let stage: Stage | null = null;
const surface = new InputSurface();
/** The size labels of the frame being drawn, sent with it. */
let pendingLabels: SizeLabel[] | null = null;

function start(message: Extract<ToStage, { type: 'init' }>): void {
  try {
    surface.resize(message.width, message.height);
    stage = createStage(message.canvas, {
      input: surface,
      pixelRatio: message.pixelRatio,
      // The page reads the placeholder canvas, which shows the last frame committed whatever happens to
      // the drawing buffer: keeping it would cost a copy of every frame.
      preserveDrawingBuffer: false,
      onDetail: (detail) => post({ type: 'detail', detail }),
      onGrid: (cellMm) => post({ type: 'grid', cellMm }),
      onFrame: (shown, gpu) => post({ type: 'frame', shown, gpu, labels: pendingLabels }),
      onMarks: (marks) => post({ type: 'marks', marks }),
      onSizeLabels: (labels) => (pendingLabels = labels),
    });
    stage.resize(message.width, message.height);
    post({ type: 'ready' });
  } catch (error) {
    // No WebGL in a worker here: the page draws on a canvas of its own instead.
    post({ type: 'failed', message: (error as Error)?.message ?? String(error) });
  }
}

async function picture(message: Extract<ToStage, { type: 'picture' }>): Promise<void> {
  try {
    if (!message.model && !stage) throw new Error('No preview is open');
    const url = message.model ? await renderThumbnail(message.model, message.size, message.up ?? 'z') : await stage!.picture(message.size);
    post({ type: 'picture', id: message.id, url });
  } catch (error) {
    post({ type: 'picture', id: message.id, error: (error as Error)?.message ?? String(error) });
  }
}

scope.onmessage = ({ data }) => {
  switch (data.type) {
    case 'init':
      return start(data);
    case 'input':
      return surface.dispatch(data.event);
    case 'picture':
      return void picture(data);
    case 'dispose':
      stage?.dispose();
      stage = null;
      return scope.close();
    case 'call':
      if (!stage) return;
      // The page sends only the Stage's own methods, with their own arguments (stage-protocol.ts).
      return (stage[data.method] as (...args: unknown[]) => void)(...data.args);
  }
};
