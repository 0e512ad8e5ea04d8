import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { ApiError, at, client, ok } from './api';
import type { ModelView } from './types';

/** A location's models, each with the name of its provider (a console connection's, not its `conn_…` id). */
export interface NamedModel extends ModelView {
  providerName: string;
}

/** `provider/model` as a person reads it: `Llama 3.3 70B (Together)`; the ids when the location does not list it. */
export function modelWords(models: NamedModel[], providerID: string, id: string): string {
  const found = models.find((m) => m.providerID === providerID && m.id === id);
  return found ? `${found.name} (${found.providerName})` : `${providerID}/${id}`;
}

/** The models of a location's providers (the server's default location without one), named by their providers. */
export async function namedModels(directory?: string): Promise<NamedModel[]> {
  const where = directory === undefined ? {} : at(directory);
  const [models, providers] = await Promise.all([
    ok(client.GET('/api/model', where)),
    // Names only: without them the ids are shown.
    ok(client.GET('/api/provider', where)).catch(() => ({ data: [] })),
  ]);
  const names = new Map(providers.data.map((provider) => [provider.id, provider.name]));
  return models.data.map((model) => ({
    ...model,
    providerName: names.get(model.providerID) ?? model.providerID,
  }));
}

/** `namedModels` of a location as it loads (again when `tick` changes; none while `directory` is empty). */
export function useNamedModels(directory: string, tick = 0) {
  const [models, setModels] = useState<NamedModel[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!directory) return;
    void namedModels(directory)
      .then(setModels)
      .catch((failure: ApiError) => setError(failure.message));
  }, [directory, tick]);
  return { models, error };
}

/** The models of the location a transcript is read in, to name the models its messages used. */
export const LocationModels = createContext<NamedModel[]>([]);

/** `provider/model` of a message by name, from the location's models (`LocationModels`). */
export function useModelWords(model: { providerID: string; id: string }): string {
  return modelWords(useContext(LocationModels), model.providerID, model.id);
}
