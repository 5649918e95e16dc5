import { AgentTestsPanel } from "../../agent-tests/agent-tests-panel.tsx";
import { AgentSettingsForm } from "../overlays/agent-settings-form.tsx";
import { AdvancedPanel, CampaignIdPanel, LinksPanel } from "./panels/about-panels.tsx";
import { ActionsPanel } from "./panels/actions-panel.tsx";
import { AnalysisPanel } from "./panels/analysis-panel.tsx";
import { KnowledgePanel } from "./panels/knowledge-panel.tsx";
import { PromptPanel } from "./panels/prompt-panel.tsx";
import { PublishPanel } from "./panels/publish-panel.tsx";
import { RoutesPanel } from "./panels/routes-panel.tsx";
import { SuggestionsPanel } from "./panels/suggestions-panel.tsx";
import { TemplatePanel } from "./panels/template-panel.tsx";
import { FieldsPanel, VariablesPanel } from "./panels/variables-panels.tsx";
import { VersionsPanel } from "./panels/versions-panel.tsx";
import { LanguagePanel, TimezonePanel, VoicesPanel } from "./panels/voice-panels.tsx";
import type { EditorPanelId, PanelProps } from "./panels.ts";

const PANELS: Record<EditorPanelId, (props: PanelProps) => React.ReactNode> = {
  prompt: PromptPanel,
  publish: PublishPanel,
  tests: ({ agentId }) => <AgentTestsPanel agentId={agentId} />,
  fields: FieldsPanel,
  variables: VariablesPanel,
  actions: ActionsPanel,
  knowledge: KnowledgePanel,
  analysis: AnalysisPanel,
  routes: RoutesPanel,
  timezone: TimezonePanel,
  language: LanguagePanel,
  voices: VoicesPanel,
  suggestions: SuggestionsPanel,
  versions: VersionsPanel,
  template: TemplatePanel,
  links: LinksPanel,
  campaignId: CampaignIdPanel,
  advanced: AdvancedPanel,
  settings: ({ agentId }) => <AgentSettingsForm agentId={agentId} />,
};

export function PanelContent({ panel, ...props }: PanelProps & { panel: EditorPanelId }) {
  const Panel = PANELS[panel];
  return <Panel {...props} />;
}
