//===- LiftAction.cpp - Running `lift` and `rewrite` over a C++ file -------===//
// g++ 12 at -O2 reports -Wnonnull inside Clang's own headers here
// (LazyOffsetPtr::get inlined into the ASTMatchers' hasDirectBase matcher): a
// false positive in code that is not ours, silenced for the Clang headers only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnonnull"
#endif
#include "tooling/LiftAction.h"

#include "tooling/KernelCall.h"
#include "tooling/LocatedDiagnostics.h"
#include "tooling/LoopNest.h"
#include "tooling/StencilLifter.h"
#include "tooling/StencilText.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace stencilc::tooling {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

/// `#pragma stencil NAME`, as the preprocessor saw it.
struct StencilMark {
  SourceLocation hash; ///< the `#`
  SourceLocation end;  ///< the directive's last token (the name)
  std::string name;
};

void report(DiagnosticsEngine &diags, DiagnosticsEngine::Level level, SourceLocation loc,
            const std::string &message) {
  diags.Report(loc, diags.getCustomDiagID(level, "%0")) << message;
}

/// Records every `#pragma stencil NAME` of the main file.
class StencilPragmaHandler : public PragmaHandler {
public:
  explicit StencilPragmaHandler(std::vector<StencilMark> &marks)
      : PragmaHandler("stencil"), marks_(marks) {}

  void HandlePragma(Preprocessor &pp, PragmaIntroducer introducer, Token &) override {
    DiagnosticsEngine &diags = pp.getDiagnostics();
    Token name;
    pp.Lex(name);
    StencilMark mark{introducer.Loc, name.getLocation(), ""};
    if (name.is(tok::identifier))
      mark.name = name.getIdentifierInfo()->getName().str();
    else
      report(diags, DiagnosticsEngine::Error, name.getLocation(),
             "expected the stencil's name after '#pragma stencil'");
    Token next = name;
    if (!next.is(tok::eod))
      pp.Lex(next);
    if (!next.is(tok::eod) && !mark.name.empty())
      report(diags, DiagnosticsEngine::Error, next.getLocation(),
             "extra tokens after '#pragma stencil " + mark.name + "'");
    while (!next.is(tok::eod))
      pp.Lex(next);
    if (!mark.name.empty() && pp.getSourceManager().isInMainFile(introducer.Loc))
      marks_.push_back(mark);
  }

private:
  std::vector<StencilMark> &marks_;
};

/// Where the last `#include` of the main file ends: kernel headers go after it.
class IncludeTracker : public PPCallbacks {
public:
  IncludeTracker(const SourceManager &sm, SourceLocation &lastInclude)
      : sm_(sm), lastInclude_(lastInclude) {}
  void InclusionDirective(SourceLocation hash, const Token &, StringRef, bool,
                          CharSourceRange filenameRange, const FileEntry *, StringRef, StringRef,
                          const clang::Module *, SrcMgr::CharacteristicKind) override {
    if (sm_.isInMainFile(hash))
      lastInclude_ = filenameRange.getEnd();
  }

private:
  const SourceManager &sm_;
  SourceLocation &lastInclude_;
};

class LoopCollector : public MatchFinder::MatchCallback {
public:
  void run(const MatchFinder::MatchResult &result) override {
    if (const auto *loop = result.Nodes.getNodeAs<ForStmt>("loop"))
      loops.push_back(loop);
  }
  std::vector<const ForStmt *> loops;
};

/// A C identifier from a file name: "heat-2d.cpp" -> "heat_2d".
std::string identifierFrom(llvm::StringRef text) {
  std::string id;
  for (char c : text)
    id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0])))
    id = "s_" + id;
  return id;
}

class LiftConsumer : public ASTConsumer {
public:
  LiftConsumer(const LiftOptions &options, LiftResult &result, std::vector<StencilMark> &marks,
               SourceLocation &lastInclude)
      : options_(options), result_(result), marks_(marks), lastInclude_(lastInclude) {}

  void HandleTranslationUnit(ASTContext &context) override;

private:
  struct Found {
    const ForStmt *loop;
    const StencilMark *mark; ///< null for nests found by --all
    std::string name;
    /// The nests after `loop` that accumulate into what it wrote: one stencil.
    std::vector<const ForStmt *> continuation;
    /// `#pragma omp` lines between the mark and the loops, which go with them.
    std::vector<SourceLocation> openMP;
  };
  std::vector<Found> findNests(ASTContext &context);
  /// Whether only comments and `#pragma omp` lines (collected in `openMP`)
  /// come after the token at `from` and before `to`.
  bool onlyCommentsBetween(SourceLocation from, SourceLocation to, ASTContext &context,
                           std::vector<SourceLocation> *openMP = nullptr);
  void addContinuation(Found &found, const std::vector<const ForStmt *> &loops,
                       ASTContext &context);
  void rewrite(ASTContext &context, const std::vector<std::pair<Found, LiftedStencil>> &lifted);

  const LiftOptions &options_;
  LiftResult &result_;
  std::vector<StencilMark> &marks_;
  SourceLocation &lastInclude_;
  std::map<const ForStmt *, SourceLocation> ends_; ///< where each lifted group ends
};

bool LiftConsumer::onlyCommentsBetween(SourceLocation from, SourceLocation to, ASTContext &context,
                                       std::vector<SourceLocation> *openMP) {
  const SourceManager &sm = context.getSourceManager();
  if (sm.getFileID(from) != sm.getFileID(to) || from.isMacroID() || to.isMacroID())
    return false;
  const char *begin = sm.getCharacterData(from);
  const char *end = sm.getCharacterData(to);
  // Raw lexing drops comments, so any token here is code between mark and loop.
  Lexer lexer(from, context.getLangOpts(), begin, begin, end);
  Token token;
  lexer.LexFromRawLexer(token); // the directive's last token
  std::vector<SourceLocation> pragmas;
  bool more = !lexer.LexFromRawLexer(token);
  while (more && !token.is(tok::eof) && sm.getCharacterData(token.getLocation()) < end) {
    // `#pragma omp ...` says how to run the loops that follow: it goes with them.
    SourceLocation hash = token.getLocation();
    Token pragma, omp;
    if (!token.is(tok::hash) || !token.isAtStartOfLine() || lexer.LexFromRawLexer(pragma) ||
        !pragma.is(tok::raw_identifier) || pragma.getRawIdentifier() != "pragma" ||
        lexer.LexFromRawLexer(omp) || !omp.is(tok::raw_identifier) ||
        omp.getRawIdentifier() != "omp")
      return false;
    pragmas.push_back(hash);
    do
      more = !lexer.LexFromRawLexer(token);
    while (more && !token.is(tok::eof) && !token.isAtStartOfLine());
  }
  if (openMP)
    openMP->insert(openMP->end(), pragmas.begin(), pragmas.end());
  return true;
}

void LiftConsumer::addContinuation(Found &found, const std::vector<const ForStmt *> &loops,
                                   ASTContext &context) {
  const SourceManager &sm = context.getSourceManager();
  std::set<const VarDecl *> written;
  const ForStmt *last = found.loop;
  for (const VarDecl *v : writtenVariables(last))
    written.insert(v);
  std::string header = headerText(found.loop, context);
  while (true) {
    auto next = std::find_if(loops.begin(), loops.end(), [&](const ForStmt *loop) {
      return sm.isBeforeInTranslationUnit(last->getEndLoc(), loop->getBeginLoc());
    });
    if (next == loops.end() || headerText(*next, context) != header || !onlyAccumulates(*next))
      return;
    for (const VarDecl *v : writtenVariables(*next))
      if (!written.count(v))
        return;
    // Where `last` ends: its closing brace, or the `;` of a body without braces.
    LiftError unused;
    auto nest = recogniseLoopNest(last, context, unused);
    if (!nest || !onlyCommentsBetween(nest->end, (*next)->getBeginLoc(), context, &found.openMP))
      return;
    found.continuation.push_back(*next);
    last = *next;
  }
}

std::vector<LiftConsumer::Found> LiftConsumer::findNests(ASTContext &context) {
  const SourceManager &sm = context.getSourceManager();
  DiagnosticsEngine &diags = context.getDiagnostics();
  LoopCollector collector;
  MatchFinder finder;
  finder.addMatcher(forStmt(isExpansionInMainFile()).bind("loop"), &collector);
  finder.matchAST(context);
  std::vector<const ForStmt *> &loops = collector.loops;
  std::sort(loops.begin(), loops.end(), [&](const ForStmt *a, const ForStmt *b) {
    return sm.isBeforeInTranslationUnit(a->getBeginLoc(), b->getBeginLoc());
  });

  std::vector<Found> found;
  std::set<const ForStmt *> marked;
  std::map<std::string, SourceLocation> names;
  for (const StencilMark &mark : marks_) {
    auto next = std::find_if(loops.begin(), loops.end(), [&](const ForStmt *loop) {
      return sm.isBeforeInTranslationUnit(mark.end, loop->getBeginLoc());
    });
    std::vector<SourceLocation> openMP;
    if (next == loops.end() ||
        !onlyCommentsBetween(mark.end, (*next)->getBeginLoc(), context, &openMP)) {
      report(diags, DiagnosticsEngine::Error, mark.hash,
             "'#pragma stencil " + mark.name +
                 "' must come right before the 'for' loop nest "
                 "it names");
      continue;
    }
    if (auto [it, fresh] = names.emplace(mark.name, mark.hash); !fresh) {
      report(diags, DiagnosticsEngine::Error, mark.hash,
             "a loop nest named '" + mark.name + "' was already marked");
      report(diags, DiagnosticsEngine::Note, it->second, "the first one is here");
      continue;
    }
    marked.insert(*next);
    found.push_back({*next, &mark, mark.name, {}, openMP});
    addContinuation(found.back(), loops, context);
    for (const ForStmt *loop : found.back().continuation)
      marked.insert(loop);
  }
  if (!options_.all)
    return found;

  // Every 2D/3D nest with a one-assignment body, outermost first; loops inside
  // a candidate (or a marked nest) are part of it.
  std::set<const ForStmt *> covered;
  auto cover = [&](const ForStmt *loop) {
    for (int d = perfectNestDepth(loop); d > 0; --d) {
      covered.insert(loop);
      if (const auto *block = dyn_cast<CompoundStmt>(loop->getBody()))
        loop = block->size() == 1 ? dyn_cast<ForStmt>(block->body_front()) : nullptr;
      else
        loop = dyn_cast<ForStmt>(loop->getBody());
      if (!loop)
        break;
    }
  };
  for (const ForStmt *loop : marked)
    cover(loop);
  std::string stem =
      identifierFrom(llvm::sys::path::stem(sm.getFileEntryForID(sm.getMainFileID())->getName()));
  for (const ForStmt *loop : loops) {
    int depth = perfectNestDepth(loop);
    if (covered.count(loop) || depth < 2 || depth > 3 || !hasStencilBody(loop))
      continue;
    cover(loop);
    std::string name = stem + "_" + std::to_string(sm.getSpellingLineNumber(loop->getBeginLoc()));
    found.push_back({loop, nullptr, name, {}, {}});
  }
  std::sort(found.begin(), found.end(), [&](const Found &a, const Found &b) {
    return sm.isBeforeInTranslationUnit(a.loop->getBeginLoc(), b.loop->getBeginLoc());
  });
  return found;
}

void LiftConsumer::HandleTranslationUnit(ASTContext &context) {
  DiagnosticsEngine &diags = context.getDiagnostics();
  if (diags.hasErrorOccurred())
    return; // a file that does not compile has no loop nests to trust
  const SourceManager &sm = context.getSourceManager();
  std::vector<std::pair<Found, LiftedStencil>> lifted;
  // The stencil of `loops` (a nest and the nests joined to it), or why not.
  auto liftGroup = [&](const std::vector<const ForStmt *> &loops, const std::string &name,
                       LiftError &error, SourceLocation &end) -> std::optional<LiftedStencil> {
    std::vector<LoopNest> group;
    for (const ForStmt *loop : loops) {
      auto nest = recogniseLoopNest(loop, context, error);
      if (!nest)
        return std::nullopt;
      group.push_back(std::move(*nest));
    }
    end = group.back().end;
    return liftLoopNests(group, name, context, error);
  };
  for (Found f : findNests(context)) {
    // Unmarked nests are only candidates: failing to lift one is a warning.
    auto level = f.mark ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning;
    std::string prefix = f.mark ? "" : "loop nest not lifted: ";
    LiftError error;
    SourceLocation end;
    std::vector<const ForStmt *> loops{f.loop};
    loops.insert(loops.end(), f.continuation.begin(), f.continuation.end());
    std::optional<LiftedStencil> stencil = liftGroup(loops, f.name, error, end);
    if (!stencil && !f.continuation.empty()) {
      // The nests that follow may be a sweep of their own (reading what the
      // first one wrote at neighbours, say): then they stay C++ loops.
      LiftError alone;
      if ((stencil = liftGroup({f.loop}, f.name, alone, end))) {
        report(diags, DiagnosticsEngine::Warning, f.continuation.front()->getBeginLoc(),
               "this loop nest is not part of the stencil '" + f.name +
                   "' before it and stays a loop: " + error.message);
        report(diags, DiagnosticsEngine::Note, error.loc, "here");
        f.continuation.clear();
      }
    }
    if (!stencil) {
      report(diags, level, error.loc, prefix + error.message);
      if (f.mark)
        report(diags, DiagnosticsEngine::Note, f.mark->hash,
               "in the loop nest marked '" + f.name + "' here");
      continue;
    }
    PresumedLoc where = sm.getPresumedLoc(f.loop->getBeginLoc());
    stencil->sourceFile = llvm::sys::path::filename(where.getFilename()).str();
    stencil->line = where.getLine();
    std::string text = stencilText(*stencil);
    std::string frontendErrors;
    auto checked = checkStencilText(text, f.name + ".stencil", frontendErrors);
    if (!checked) {
      report(diags, level, f.loop->getBeginLoc(),
             prefix + "the stencil lifted from this loop nest is not valid:\n" + text +
                 frontendErrors);
      if (f.mark)
        report(diags, DiagnosticsEngine::Note, f.mark->hash,
               "in the loop nest marked '" + f.name + "' here");
      continue;
    }
    nameKernelMembers(*stencil, checked->stencils.front());
    ends_[f.loop] = end;
    lifted.push_back({f, *stencil});
  }
  for (auto &entry : lifted)
    result_.stencils.push_back(entry.second);
  if (options_.rewrite && !diags.hasErrorOccurred())
    rewrite(context, lifted);
}

/// The whitespace that starts the line of `loc`.
std::string indentationOf(SourceLocation loc, const SourceManager &sm) {
  auto [file, offset] = sm.getDecomposedLoc(loc);
  llvm::StringRef buffer = sm.getBufferData(file);
  size_t lineStart = buffer.rfind('\n', offset); // searches before `offset`
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  llvm::StringRef line = buffer.substr(lineStart, offset - lineStart);
  return line.substr(0, line.find_first_not_of(" \t")).str();
}

/// The whole line of `loc`, with its newline.
CharSourceRange lineOf(SourceLocation loc, const SourceManager &sm) {
  FileID file = sm.getFileID(loc);
  unsigned line = sm.getSpellingLineNumber(loc);
  SourceLocation begin = sm.translateLineCol(file, line, 1);
  SourceLocation next = sm.translateLineCol(file, line + 1, 1);
  if (next == begin || sm.getSpellingLineNumber(next) == line) // the last line
    next = sm.getLocForEndOfFile(file);
  return CharSourceRange::getCharRange(begin, next);
}

void LiftConsumer::rewrite(ASTContext &context,
                           const std::vector<std::pair<Found, LiftedStencil>> &lifted) {
  SourceManager &sm = context.getSourceManager();
  Rewriter rewriter(sm, context.getLangOpts());
  std::string includes;
  for (const auto &[found, stencil] : lifted) {
    if (!found.mark && !options_.all)
      continue;
    if (found.mark)
      rewriter.RemoveText(lineOf(found.mark->hash, sm));
    // The OpenMP pragmas before the loops (those inside are replaced with them).
    for (SourceLocation pragma : found.openMP)
      if (sm.isBeforeInTranslationUnit(pragma, found.loop->getBeginLoc()))
        rewriter.RemoveText(lineOf(pragma, sm));
    SourceLocation begin = found.loop->getBeginLoc();
    rewriter.ReplaceText(CharSourceRange::getTokenRange(begin, ends_.at(found.loop)),
                         kernelCallText(stencil, indentationOf(begin, sm)));
    includes += "#include \"" + kernelHeaderName(stencil) + "\" // generated by stencilc gen\n";
  }
  if (!includes.empty()) {
    FileID main = sm.getMainFileID();
    if (lastInclude_.isValid()) {
      CharSourceRange line = lineOf(lastInclude_, sm);
      rewriter.InsertTextBefore(line.getEnd(), includes);
    } else {
      rewriter.InsertTextBefore(sm.getLocForStartOfFile(main), includes);
    }
  }
  const RewriteBuffer *buffer = rewriter.getRewriteBufferFor(sm.getMainFileID());
  result_.rewrittenSource = buffer ? std::string(buffer->begin(), buffer->end())
                                   : sm.getBufferData(sm.getMainFileID()).str();
}

class LiftFrontendAction : public ASTFrontendAction {
public:
  LiftFrontendAction(const LiftOptions &options, LiftResult &result)
      : options_(options), result_(result) {}

  bool BeginSourceFileAction(CompilerInstance &ci) override {
    Preprocessor &pp = ci.getPreprocessor();
    pp.AddPragmaHandler(new StencilPragmaHandler(marks_)); // the preprocessor owns it
    pp.addPPCallbacks(std::make_unique<IncludeTracker>(ci.getSourceManager(), lastInclude_));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<LiftConsumer>(options_, result_, marks_, lastInclude_);
  }

private:
  const LiftOptions &options_;
  LiftResult &result_;
  std::vector<StencilMark> marks_;
  SourceLocation lastInclude_;
};

class LiftActionFactory : public clang::tooling::FrontendActionFactory {
public:
  LiftActionFactory(const LiftOptions &options, LiftResult &result)
      : options_(options), result_(result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<LiftFrontendAction>(options_, result_);
  }

private:
  const LiftOptions &options_;
  LiftResult &result_;
};

} // namespace

bool liftFile(const std::string &file, const std::vector<std::string> &compilerArgs,
              const LiftOptions &options, LiftResult &result) {
  clang::tooling::FixedCompilationDatabase database(".", compilerArgs);
  clang::tooling::ClangTool tool(database, {file});
  // Clang finds its own headers (stddef.h, ...) relative to its binary; this
  // program is not clang, so name the directory it was built against.
  tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      clang::tooling::CommandLineArguments{"-resource-dir", STENCILC_CLANG_RESOURCE_DIR},
      clang::tooling::ArgumentInsertPosition::BEGIN));
  LocatedDiagnostics diagnostics(file);
  tool.setDiagnosticConsumer(&diagnostics);
  LiftActionFactory factory(options, result);
  return tool.run(&factory) == 0;
}

} // namespace stencilc::tooling
