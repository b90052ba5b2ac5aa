#ifndef TONIGHT_CLIBXML2_SHIM_H
#define TONIGHT_CLIBXML2_SHIM_H
// Debian's libxml2 headers pull in ICU, whose UErrorCode clashes with the one
// Foundation ships: switch the ICU part off before anything else is included.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/dict.h>

/// xmlFree is a C global function pointer; Swift cannot call it directly.
static inline void tonight_xmlFree(void *p) { xmlFree(p); }

/// The line and column of the parser's current position.
static inline int tonight_xmlLine(xmlParserCtxtPtr ctxt) {
    return (ctxt && ctxt->input) ? ctxt->input->line : 0;
}
static inline int tonight_xmlColumn(xmlParserCtxtPtr ctxt) {
    return (ctxt && ctxt->input) ? ctxt->input->col : 0;
}
static inline const xmlChar *tonight_xmlDictLookup(xmlParserCtxtPtr ctxt, const char *name) {
    return xmlDictLookup(ctxt->dict, (const xmlChar *)name, -1);
}
static inline void tonight_setUserData(xmlParserCtxtPtr ctxt, void *data) {
    ctxt->userData = data;
}
#endif
