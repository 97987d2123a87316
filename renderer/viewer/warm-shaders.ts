// Shader programs made ready before a model comes: compiled, and drawn once (the plate's and grid's too).
import * as THREE from 'three';

/**
 * Compiles the programs a model is drawn with (flat shading, with and without its own colours; the size
 * box's lines) and draws each once into a single pixel: without a GPU, compiling them took a few hundred
 * milliseconds of the first picture's time, and software WebGL (SwiftShader) builds its own code for a
 * program only at its first draw, which took most of a second more. The geometries have the model's own
 * attributes (positions, and colours for the coloured one), which that code is built for.
 *
 * The materials are kept until the returned release is called (the stage's end): three.js deletes a
 * program once no material uses it, so each model cleared from a kept stage took its programs with it,
 * and the next model's first frame built them again (a trace of a session's second preview: 583 ms of
 * one WebGL flush in the GPU process, after four programs linked anew).
 */
export function warmShaders(renderer: THREE.WebGLRenderer, scene: THREE.Scene, camera: THREE.Camera): () => void {
  // One triangle over the whole view, before an orthographic camera looking down at it.
  const cover = () => new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(new Float32Array([-1, -1, 0, 3, -1, 0, -1, 3, 0]), 3));
  const plain = cover();
  const coloured = cover().setAttribute('color', new THREE.BufferAttribute(new Float32Array(9).fill(1), 3));
  const materials = [false, true].map((vertexColors) => new THREE.MeshStandardMaterial({ vertexColors, flatShading: true, roughness: 0.75, metalness: 0, side: THREE.DoubleSide }));
  const lines = new THREE.LineBasicMaterial({ toneMapped: false });
  const warm = new THREE.Group().add(new THREE.Mesh(plain, materials[0]), new THREE.Mesh(coloured, materials[1]), new THREE.LineSegments(plain, lines));
  const looking = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, 10);
  looking.position.z = 1;
  // The plate and its grid, seen from above: their programs are drawn once too.
  const above = new THREE.PerspectiveCamera(35, 1, 0.1, 10_000);
  above.position.set(0, 300, 0.01);
  above.lookAt(0, 0, 0);
  scene.add(warm);
  try {
    renderer.compile(scene, camera);
    // The middle pixel of the canvas, drawn over by the first real frame.
    const { x, y } = renderer.getSize(new THREE.Vector2());
    renderer.setScissor(Math.floor(x / 2), Math.floor(y / 2), 1, 1);
    renderer.setScissorTest(true);
    warm.visible = false;
    renderer.render(scene, above);
    warm.visible = true;
    renderer.render(scene, looking);
  } finally {
    renderer.setScissorTest(false);
    scene.remove(warm);
    plain.dispose();
    coloured.dispose();
  }
  return () => [...materials, lines].forEach((material) => material.dispose());
}
