// libxml2's push parser and SAX2 handlers; pkg-config adds the folder Debian puts the headers in.
#include <libxml/xmlversion.h>
// Debian's libxml2 converts encodings with ICU, whose headers clash with the ICU Foundation
// carries. cloudseed never touches an encoding handler's fields, the only ones ICU adds.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
