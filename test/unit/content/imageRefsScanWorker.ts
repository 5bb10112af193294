/**
 * Runs one missing-alt scan off the test's main thread, so node:test's per-test timeout can fire
 * (and fail the test) while a slow scan is still running: a synchronous scan on the main thread
 * would block the timer until it finished.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { findImagesNeedingAlt, type ImageSyntax } from '../../../src/core/content/imageRefs';

const { text, syntax } = workerData as { text: string; syntax: ImageSyntax };
parentPort?.postMessage(findImagesNeedingAlt(text, syntax).length);
