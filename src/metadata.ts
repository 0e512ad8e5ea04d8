/* eslint-disable */
export default async () => {
    const t = {
        ["./modules/locations/dto/location-query.dto"]: await import("./modules/locations/dto/location-query.dto")
    };
    return { "@nestjs/swagger": { "models": [[import("./modules/locations/dto/location-query.dto"), { "LocationRefDto": { directory: { required: false, type: () => String, nullable: true, description: "Absolute path of the project directory." }, workspace: { required: false, type: () => String, description: "Sent by older opencode clients; ignored." } }, "LocationQueryDto": { location: { required: false, type: () => t["./modules/locations/dto/location-query.dto"].LocationRefDto, nullable: true } } }]], "controllers": [[import("./modules/health/health.controller"), { "HealthController": { "check": {} } }], [import("./modules/locations/locations.controller"), { "LocationsController": { "get": { type: Object } } }]] } };
};