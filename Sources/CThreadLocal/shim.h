// A C thread-local variable, which Swift has no syntax for. `ThreadStripe` keeps each thread's stripe in it: read on
// every use of a striped value (about ten per OFREP request), where `pthread_getspecific` behind a lazily made key
// costs a call and a check of the key's initialization each time, this is one load relative to the thread pointer.
//
// Weak, so that every Swift module whose code inlines these functions refers to the one variable the linker keeps.
#ifndef VOUCH_THREAD_LOCAL_H
#define VOUCH_THREAD_LOCAL_H

__attribute__((weak)) __thread long vouch_thread_stripe_plus_one = 0;

/// The calling thread's stripe plus one; 0 until it is set.
static inline long vouch_thread_stripe_get(void) { return vouch_thread_stripe_plus_one; }

static inline void vouch_thread_stripe_set(long stripe_plus_one) { vouch_thread_stripe_plus_one = stripe_plus_one; }

#endif
