/**
 * HTTP header names this extension accepts in settings and puts into shell text. A module of its own:
 * the server settings read at activation need only this, not the request export (requestExport.ts).
 */
export const HEADER_NAME = /^[A-Za-z0-9-]+$/;
