/**
 * The one byte formatter for everything the user reads (limits in errors, file sizes in questions).
 *
 * Convention: binary units with their IEC names, 1 KiB = 1,024 bytes, 1 MiB = 1,048,576 bytes,
 * 1 GiB = 1,073,741,824 bytes. Most limits here are powers of two and read as whole numbers ("4 MiB");
 * a size that is not a whole number of its unit is rounded to one decimal and followed by the exact
 * byte count ("23.8 MiB (25,000,000 bytes)"), so nothing is lost to rounding and no "MB" is left to
 * guess at. Billing units are not sizes: the gateway prices audio per MB of 1,000,000 bytes, and the
 * cost text says so itself (src/core/media/mediaCost.ts). Dependency-free.
 */
const UNITS = [
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
] as const;

export function formatBytes(bytes: number): string {
  for (const [name, size] of UNITS) {
    if (bytes < size) continue;
    const value = bytes / size;
    if (Number.isInteger(value)) return `${value} ${name}`;
    return `${value.toFixed(1)} ${name} (${bytes.toLocaleString('en-US')} bytes)`;
  }
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}
