// Append-only typed arrays for parsers that cannot know their output size up front. Doubling keeps the
// copies to O(n). `trimmed()` hands back an exact-size copy; `used()` a view, whose buffer keeps the
// unwritten slack. A generous first size costs little: fresh typed arrays are zero pages the OS maps only
// when they are written, and slack that was never written stays unmapped wherever the buffer goes.

export class GrowableFloat32 {
  data: Float32Array;
  length = 0;

  constructor(initial = 1024) {
    this.data = new Float32Array(Math.max(16, initial));
  }

  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const bigger = new Float32Array(Math.max(this.data.length * 2, this.length + extra));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }

  trimmed(): Float32Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }

  /** The filled part without a copy. */
  used(): Float32Array {
    return this.data.subarray(0, this.length);
  }
}

export class GrowableInt32 {
  data: Int32Array;
  length = 0;

  constructor(initial = 1024) {
    this.data = new Int32Array(Math.max(16, initial));
  }

  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const bigger = new Int32Array(Math.max(this.data.length * 2, this.length + extra));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }

  trimmed(): Int32Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }

  /** The filled part without a copy. */
  used(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

export class GrowableUint8 {
  data: Uint8Array;
  length = 0;

  constructor(initial = 1024) {
    this.data = new Uint8Array(Math.max(16, initial));
  }

  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const bigger = new Uint8Array(Math.max(this.data.length * 2, this.length + extra));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }

  trimmed(): Uint8Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }
}
