/**
 * The table's overlays, one file each: the bidding prompts (BidPanels), the hand summary (HandSummaryDialog) with
 * its deal verification (DealVerification), and the game result (ResultDialog); what they show is derived in the
 * pure `result-model.ts`. This module is their one import point for the table page.
 */
export { BiddingPanel, BlindNilPrompt } from './BidPanels';
export { DealVerification } from './DealVerification';
export { HandSummaryDialog } from './HandSummaryDialog';
export { ResultDialog } from './ResultDialog';
export { soloStandings, type GameOverModel } from './result-model';
