// What one call of opencode's SDK returned, for the SDK client scripts (test/e2e/*/sdk-*-client.mjs) to print as
// JSON: `{ status, data, error }`, or `{ thrown }` when the call threw.
export const result = async (call) => {
  try {
    const { data, error, response } = await call;
    return { status: response.status, data, error };
  } catch (error) {
    return { thrown: String(error) };
  }
};
