/* global module */
// node-polyglot (react-admin's translations) requires the `object.entries` polyfill, which brings
// ~25 kB of ES-spec helpers (get-intrinsic, call-bind…) to the first load; every browser the portal
// supports has Object.entries (issue 18). vite.config.ts aliases the package to this file.
module.exports = Object.entries;
