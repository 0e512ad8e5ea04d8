/* eslint-disable */
export default async () => {
    const t = {};
    return { "@nestjs/swagger": { "models": [], "controllers": [[import("./modules/health/health.controller"), { "HealthController": { "check": {} } }]] } };
};