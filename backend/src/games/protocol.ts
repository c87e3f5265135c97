export * from '@spades/common';
