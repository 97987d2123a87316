// Where the model sits in the canvas: the tool row above and the notes below cover part of it, so the
// camera centres the model in the band between them (a view offset moves the picture's centre there) and
// fits it to that band, not to the whole canvas. Fitted to the whole, a model's top went under the tools.
import * as THREE from 'three';

export interface Frame {
  width: number;
  height: number;
  /** pixels covered at the canvas's top and bottom */
  top: number;
  bottom: number;
}

/** Half the difference of the covered bands: how far below the canvas's centre the band's centre is. */
const shiftOf = ({ top, bottom }: Frame) => Math.round((top - bottom) / 2);

/** The camera's projection for this canvas: its picture centred on the free band. */
export function frameCamera(camera: THREE.PerspectiveCamera, frame: Frame): void {
  const shift = shiftOf(frame);
  // The picture of a taller canvas, centred on the band, of which this canvas is the part in view.
  const full = frame.height + 2 * Math.abs(shift);
  camera.aspect = frame.width / full;
  if (shift === 0) camera.clearViewOffset();
  else camera.setViewOffset(frame.width, full, 0, shift > 0 ? 0 : -2 * shift, frame.width, frame.height);
  camera.updateProjectionMatrix();
}

/** How far from a sphere of `radius` the camera stands for it to fill the free band, with a margin. */
export function fitDistance(camera: THREE.PerspectiveCamera, radius: number, frame: Frame, margin = 1.15): number {
  const full = frame.height + 2 * Math.abs(shiftOf(frame));
  // A band squeezed by a tiny canvas still gets a third of it.
  const band = Math.max(frame.height / 3, frame.height - frame.top - frame.bottom);
  const tanHalf = Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
  const halfAngle = Math.min(Math.atan((tanHalf * band) / full), Math.atan((tanHalf * frame.width) / full));
  return (radius / Math.sin(halfAngle)) * margin;
}
