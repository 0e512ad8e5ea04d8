// Under jest only (see moduleNameMapper): jest cannot require the ES-module build of content-disposition 3,
// which @fastify/static loads for `reply.download()`. Outpost never calls that; Swagger UI's assets do not
// need it. A plain attachment header stands in.
module.exports = {
  create: (filename) =>
    `attachment; filename="${String(filename ?? '').replace(/[^\x20-\x7e]|["\\]/g, '_')}"`,
};
