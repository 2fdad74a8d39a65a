// Debian puts libpq's header under postgresql/; pkg-config (when installed) adds that folder itself.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
