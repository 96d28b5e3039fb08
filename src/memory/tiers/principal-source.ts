import { defaultAiSynthesisSources, defaultTrustedSources } from "./tier-inputs.js";

/** Who is writing a memory, as authentication says: a person (their own key) or an agent (a key given to it). */
export type Principal = "person" | "agent";

/** The source the gate judges an agent's memory by: an agent's writing is AI synthesis, whatever it says. */
export const agentSource = defaultAiSynthesisSources[2] ?? "agent";

export interface SourcedMemory {
  readonly source: string;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The memory as the gate should see it: the trust tier follows the authenticated principal, never the payload.
 * A person's memory is unchanged. An agent's memory that names a trusted source ("user", "documentation"...)
 * is judged as the agent's own (AI synthesis: reviewed unless a citation verifies it), and the source it
 * claimed is kept in `metadata.claimedSource` for the reviewer to see.
 */
export const sourcedByPrincipal = <M extends SourcedMemory>(principal: Principal, memory: M): M => {
  if (principal === "person" || !defaultTrustedSources.includes(memory.source)) return memory;
  return {
    ...memory,
    source: agentSource,
    metadata: { ...(memory.metadata ?? {}), claimedSource: memory.source },
  };
};
