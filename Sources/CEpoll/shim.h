// Linux's epoll, part of glibc (nothing to link), which Swift's Glibc module leaves out. Only vouch-bench uses it:
// one thread watching 10,000 event streams, where poll(2) would scan every descriptor on every call.
#include <sys/epoll.h>
