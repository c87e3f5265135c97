import { Tabs } from 'radix-ui';
import { Modal } from './ui';

/** §2/§9 Game Rules dialog: Rules, Game Types, Scoring. */
export function GameRulesDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Game Rules" className="modal-md">
      <Tabs.Root defaultValue="rules" className="tabs">
        <Tabs.List className="tab-list" aria-label="Game rules sections">
          <Tabs.Trigger value="rules" className="tab">
            Rules
          </Tabs.Trigger>
          <Tabs.Trigger value="types" className="tab">
            Game Types
          </Tabs.Trigger>
          <Tabs.Trigger value="scoring" className="tab">
            Scoring
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="rules" className="tab-content prose">
          <p>
            Four players, 13 cards each. Partners sit opposite each other (seats 1 &amp; 3 against 2 &amp; 4); in Solo
            everyone plays for themselves.
          </p>
          <ul>
            <li>Bidding starts left of the dealer: bid how many tricks you will take (Nil = none, 1–13).</li>
            <li>Then 13 tricks. Follow the suit led if you can; spades are trump.</li>
            <li>Spades cannot be led until they are broken, unless you hold only spades.</li>
            <li>
              The highest spade wins the trick, otherwise the highest card of the suit led. The winner leads next.
            </li>
            <li>The game ends when a side reaches the target score or drops to the minimum score.</li>
          </ul>
          <p className="warning-box">
            Table talk with your partner is not allowed: it leads to removal from the table and a ban from the platform.
          </p>
        </Tabs.Content>
        <Tabs.Content value="types" className="tab-content prose">
          <dl className="defs">
            <dt>
              <span className="badge badge-green">REGULAR</span>
            </dt>
            <dd>Bid any number of tricks, or Nil if the table allows it.</dd>
            <dt>
              <span className="badge badge-blue">WHIZ</span>
            </dt>
            <dd>Bid the number of spades you hold, or Nil (not with the A♠). No spades: Nil is forced.</dd>
            <dt>
              <span className="badge badge-red">MIRRORS</span>
            </dt>
            <dd>Your bid is forced to your spade count.</dd>
            <dt>
              <span className="badge badge-orange">SUICIDE</span>
            </dt>
            <dd>One partner of each team must bid Nil (partners only).</dd>
            <dt>
              <span className="badge badge-orange">4 OR NIL</span>
            </dt>
            <dd>Bid 4 or Nil.</dd>
            <dt>
              <span className="badge badge-orange">BID 3</span>
            </dt>
            <dd>Everyone bids 3.</dd>
            <dt>
              <span className="badge badge-orange">BID ♥s</span>
            </dt>
            <dd>Your bid is your number of hearts.</dd>
            <dt>
              <span className="badge badge-orange">CRAZY As</span>
            </dt>
            <dd>You bid 3 for every ace you hold.</dd>
            <dt>
              <span className="badge badge-outline">SCREAMER</span>
            </dt>
            <dd>No spade play while you hold other suits.</dd>
            <dt>
              <span className="badge badge-outline">ASSASSIN</span>
            </dt>
            <dd>A spade must be played whenever possible.</dd>
          </dl>
        </Tabs.Content>
        <Tabs.Content value="scoring" className="tab-content prose">
          <ul>
            <li>Made bid: +10 per trick bid. Failed bid: −10 per trick bid.</li>
            <li>Each extra trick (bag): +1. Reaching 10 bags costs −100 (bags are shown modulo 10).</li>
            <li>Nil: +100 if made, −100 if failed. Blind Nil: +200 / −200 (shown as bid −1 in the summary).</li>
            <li>In Partners, both partners' results are added to the team.</li>
            <li>
              Prizes: the pot is 4 × buy-in less a 10% fee. Partners: each winning partner gets half of the pot. Solo:
              1st gets the pot minus the buy-in, 2nd gets the buy-in back.
            </li>
            <li>Coin games are rated only when four humans play.</li>
          </ul>
        </Tabs.Content>
      </Tabs.Root>
    </Modal>
  );
}
