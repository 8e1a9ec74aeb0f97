// GtkSourceView 5, for the completion benchmark only: its fuzzy matcher
// (gtk_source_completion_fuzzy_match) is the yardstick our matcher is measured against;
// and glibc's mallinfo2, with which it weighs the completion indexes.
#ifndef CGTKSOURCEVIEW_SHIM_H
#define CGTKSOURCEVIEW_SHIM_H

#include <gtksourceview/gtksource.h>
#include <malloc.h>

#endif
