// Shader programs compiled while a model's file is still being read.
import * as THREE from 'three';

/**
 * Compiles the programs a model is drawn with (flat shading, with and without its own colours; the size
 * box's lines) while the file is still being read: without a GPU, compiling them took a few hundred
 * milliseconds of the first picture's time.
 */
export function warmShaders(renderer: THREE.WebGLRenderer, scene: THREE.Scene, camera: THREE.Camera): void {
  const geometry = new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
  geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(9), 3));
  const materials = [false, true].map((vertexColors) => new THREE.MeshStandardMaterial({ vertexColors, flatShading: true, roughness: 0.75, metalness: 0, side: THREE.DoubleSide }));
  const lines = new THREE.LineBasicMaterial({ toneMapped: false });
  const warm = new THREE.Group().add(...materials.map((material) => new THREE.Mesh(geometry, material)), new THREE.LineSegments(geometry, lines));
  scene.add(warm);
  try {
    renderer.compile(scene, camera);
  } finally {
    scene.remove(warm);
    geometry.dispose();
    for (const material of [...materials, lines]) material.dispose();
  }
}

