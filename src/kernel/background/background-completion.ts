/** How a background task ended. */
export type BackgroundStatus = "completed" | "partial" | "failed" | "cancelled";

/** A finished background task, delivered to the model as a user note. */
export interface BackgroundCompletion {
  id: string;
  label: string;
  content: string;
  status: BackgroundStatus;
  isError: boolean;
  awaitIdle?: boolean;
}
