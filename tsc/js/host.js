// The tsc workload's compiler host and driver: runs after typescript.js has defined the
// global `ts`, under QuickJS (the workload) and under node (tsc/scripts/node-check.js, the
// reference run). Nothing here touches a file system: every file comes from the caller.
//
// One program, N checkers, as TypeScript's native port runs them:
//   checkbench.program(input)     parses every file and resolves modules (ts.createProgram);
//   checkbench.bind()             binds every file once (ts.bindSourceFile);
// or, the program's files parsed and bound by several threads, file j by the one whose turn
// it is:
//   checkbench.load(input)        takes the input; returns how many files there are to parse
//                                 (the root files, then the standard library's);
//   checkbench.parse(j)           parses file j ahead of the program (ts.createSourceFile,
//                                 with the options the program would give it);
//   checkbench.program()          resolves modules (ts.createProgram), taking the files
//                                 parsed ahead and parsing any other;
//   checkbench.bindFile(j)        binds file j if the program holds it;
//   checkbench.bind()             binds the rest;
//   checkbench.checker(k)         makes checker k over that program (ts.createTypeChecker), on
//                                 the thread that will run it, so that its tables are its own;
//   checkbench.checkFile(k, i)    checks root file i with checker k and keeps its diagnostics;
//   checkbench.report(k)          checker k's diagnostics and counts, as JSON.
// Checker k takes the root files k, k + N, ...; the caller decides the order of the calls.
"use strict";
var checkbench = (function () {
  // Where the corpus lives and where the standard library is found, as a project with
  // TypeScript installed lays them out.
  var ROOT = "/";
  var LIB_DIR = "/node_modules/typescript/lib/";
  var state = null;

  // The compiler options of every run, as the report states them.
  function compilerOptions(roots) {
    var paths = {};
    roots.forEach(function (root) {
      paths[root[0]] = ["./" + root[1]];
      paths[root[0] + "/*"] = ["./" + root[1] + "/*"];
    });
    var options = {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.Preserve,
      allowJs: true,
      checkJs: false,
      skipDefaultLibCheck: true,
      noEmit: true,
      types: [],
      // Unions and other type lists ordered by a rule of the types themselves, not by the
      // order a checker happened to create them in: the same diagnostics from 1 checker or 8
      // (TypeScript 6.0's bridge to the native port, which checks in parallel).
      stableTypeOrdering: true,
    };
    if (roots.length > 0) options.paths = paths;
    return options;
  }

  function makeHost(files, libs, parsed) {
    var directories = new Set();
    function addDirectories(path) {
      for (var i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
        var dir = path.slice(0, i);
        if (directories.has(dir)) return;
        directories.add(dir);
      }
    }
    Object.keys(files).forEach(addDirectories);
    Object.keys(libs).forEach(addDirectories);
    function text(fileName) {
      if (Object.prototype.hasOwnProperty.call(files, fileName)) return files[fileName];
      if (Object.prototype.hasOwnProperty.call(libs, fileName)) return libs[fileName];
      return undefined;
    }
    var trimSlash = function (p) {
      return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
    };
    return {
      getSourceFile: function (fileName, languageVersion) {
        var source = text(fileName);
        if (source === undefined) return undefined;
        // A file parsed ahead is taken if it was parsed as the program asks now.
        var ahead = parsed && parsed.get(fileName);
        if (ahead && sameParse(ahead, languageVersion)) {
          parsed.taken++;
          return ahead;
        }
        return ts.createSourceFile(fileName, source, languageVersion, false);
      },
      getDefaultLibFileName: function (opts) {
        return LIB_DIR + ts.getDefaultLibFileName(opts);
      },
      getDefaultLibLocation: function () {
        return trimSlash(LIB_DIR);
      },
      writeFile: function () {},
      getCurrentDirectory: function () {
        return ROOT;
      },
      getCanonicalFileName: function (fileName) {
        return fileName;
      },
      useCaseSensitiveFileNames: function () {
        return true;
      },
      getNewLine: function () {
        return "\n";
      },
      fileExists: function (fileName) {
        return text(fileName) !== undefined;
      },
      readFile: function (fileName) {
        return text(fileName);
      },
      directoryExists: function (dir) {
        dir = trimSlash(dir);
        return dir === "/" || directories.has(dir);
      },
      getDirectories: function () {
        return [];
      },
      realpath: function (path) {
        return path;
      },
    };
  }

  // What a parse depends on: the target and the module format (the rest of what the program
  // passes, setExternalModuleIndicator, is a function of the options alone).
  function sameParse(file, languageVersion) {
    var asked = typeof languageVersion === "object" ? languageVersion : { languageVersion: languageVersion };
    return file.languageVersion === asked.languageVersion && file.impliedNodeFormat === asked.impliedNodeFormat;
  }

  // input: { files: {corpus path: text}, libs: {file name: text}, roots: [[module, path]],
  //          rootFiles: [corpus path, ...] }
  function program(input) {
    if (input !== undefined) load(input);
    state.program = ts.createProgram({ rootNames: state.rootNames, options: state.compilerOptions, host: state.host });
    return state.program.getSourceFiles().length;
  }

  function load(input) {
    state = makeState(input);
    return state.ahead.length;
  }

  // File j of the root files and then the standard library's, parsed as the program will ask
  // for it (the options of its getCreateSourceFileOptions).
  function parse(j) {
    var name = state.ahead[j];
    var options = state.compilerOptions;
    var format = ts.getImpliedNodeFormatForFile(name, undefined, state.host, options);
    var file = ts.createSourceFile(
      name,
      state.host.readFile(name),
      {
        languageVersion: ts.getEmitScriptTarget(options),
        impliedNodeFormat: format,
        setExternalModuleIndicator: ts.getSetExternalModuleIndicator(options),
      },
      false
    );
    state.parsed.set(name, file);
  }

  // How many of the files parsed ahead the program took (the others it parsed again).
  function parsedAhead() {
    return state.parsed.taken;
  }

  function bindFile(j) {
    var file = state.program.getSourceFile(state.ahead[j]);
    if (file === undefined) return 0;
    ts.bindSourceFile(file, state.program.getCompilerOptions());
    return file.symbolCount;
  }

  function makeProgram(input) {
    var s = makeState(input);
    return ts.createProgram({ rootNames: s.rootNames, options: s.compilerOptions, host: s.host });
  }

  function makeState(input) {
    var files = {};
    Object.keys(input.files).forEach(function (path) {
      files[ROOT + path] = input.files[path];
    });
    var libs = {};
    Object.keys(input.libs).forEach(function (name) {
      libs[LIB_DIR + name] = input.libs[name];
    });
    var options = compilerOptions(input.roots);
    var parsed = new Map();
    parsed.taken = 0;
    var host = makeHost(files, libs, parsed);
    var rootNames = input.rootFiles.map(function (path) {
      return ROOT + path;
    });
    return {
      options: describeOptions(options),
      compilerOptions: options,
      host: host,
      parsed: parsed,
      ahead: rootNames.concat(Object.keys(libs)),
      program: null,
      rootNames: rootNames,
      checkers: [],
    };
  }

  // TypeScript's own answer, for the reference run: a program of its own, checked by the
  // program's own checker, every root file's pre-emit diagnostics as records.
  function plain(input) {
    var own = makeProgram(input);
    var list = own.getOptionsDiagnostics();
    own.getRootFileNames().forEach(function (name) {
      var file = own.getSourceFile(name);
      list = list.concat(own.getSyntacticDiagnostics(file), own.getSemanticDiagnostics(file));
    });
    // Last: checking adds to the global diagnostics.
    return list.concat(own.getGlobalDiagnostics()).map(record);
  }

  // Binding is the program's, done once: every checker made afterwards finds each file bound
  // (the binder skips a file that has its locals) and merges the globals into its own tables.
  // Returns the symbols of the files it bound, so that bindFile's and bind's add up to the
  // program's.
  function bind() {
    var symbols = 0;
    state.program.getSourceFiles().forEach(function (file) {
      if (file.locals !== undefined) return;
      ts.bindSourceFile(file, state.program.getCompilerOptions());
      symbols += file.symbolCount;
    });
    return symbols;
  }

  function checker(index) {
    state.checkers[index] = { checker: ts.createTypeChecker(state.program), diagnostics: [] };
  }

  function corpusPath(fileName) {
    if (fileName.startsWith(LIB_DIR)) return "lib/" + fileName.slice(LIB_DIR.length);
    return fileName.startsWith(ROOT) ? fileName.slice(ROOT.length) : fileName;
  }

  function record(d) {
    var out = {
      file: "",
      line: 0,
      column: 0,
      start: d.start === undefined ? -1 : d.start,
      code: d.code,
      category: ts.DiagnosticCategory[d.category].toLowerCase(),
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
      canonical: null,
    };
    // A name not found is worded by how many its checker failed to resolve before: the first
    // 10 of each checker get a spelling suggestion ("Did you mean ...?"), the rest not. The
    // checker records the wording without one as the diagnostic's canonical head; the digest
    // counts that, so that it does not depend on how the files are shared among checkers.
    if (d.canonicalHead) {
      out.canonical = {
        code: d.canonicalHead.code,
        message: ts.flattenDiagnosticMessageText(d.canonicalHead.messageText, "\n"),
      };
    }
    if (d.file) {
      out.file = corpusPath(d.file.fileName);
      if (d.start !== undefined) {
        var lc = d.file.getLineAndCharacterOfPosition(d.start);
        out.line = lc.line + 1;
        out.column = lc.character + 1;
      }
    }
    return out;
  }

  // Root file `file`'s pre-emit diagnostics under checker `index`: syntactic, then semantic.
  function checkFile(index, file) {
    var own = state.checkers[index];
    var source = state.program.getSourceFile(state.rootNames[file]);
    keep(own, state.program.getSyntacticDiagnostics(source));
    keep(own, semanticDiagnostics(own.checker, source));
  }

  function keep(own, list) {
    for (var i = 0; i < list.length; i++) own.diagnostics.push(record(list[i]));
  }

  // What program.getSemanticDiagnostics(file) reports, with `checker` in place of the
  // program's own one (which a program makes only for itself): the file's bind and check
  // diagnostics unless type checking skips it, less those a // @ts-ignore or
  // // @ts-expect-error above them silences, plus an error for every expectation left unused,
  // filtered by the options; then the program's own diagnostics of the file.
  function semanticDiagnostics(checker, file) {
    var program = state.program;
    var options = program.getCompilerOptions();
    var found = [];
    if (!ts.skipTypeChecking(file, options, program)) {
      if (ts.isPlainJsFile(file, options.checkJs)) {
        // Never with checkJs: false; a plain JS file keeps only some codes, a rule not
        // followed here.
        throw new Error(file.fileName + " is a plain JS file, which the host does not check");
      }
      found = (file.bindDiagnostics || []).concat(checker.getDiagnostics(file));
      var js = file.scriptKind === ts.ScriptKind.JS || file.scriptKind === ts.ScriptKind.JSX;
      if (js && ts.isCheckJsEnabledForFile(file, options) && file.jsDocDiagnostics) {
        found = found.concat(file.jsDocDiagnostics);
      }
      found = ts.filterSemanticDiagnostics(applyDirectives(file, found), options);
    }
    return found.concat(program.getProgramDiagnostics(file));
  }

  // A diagnostic is silenced by the nearest directive on the lines above its own, looking past
  // blank lines and line comments only.
  function applyDirectives(file, diagnostics) {
    if (!file.commentDirectives || file.commentDirectives.length === 0) return diagnostics;
    var directives = ts.createCommentDirectivesMap(file, file.commentDirectives);
    var silenced = function (d) {
      if (!d.file) return false;
      var starts = ts.getLineStarts(d.file);
      var line = ts.computeLineAndCharacterOfPosition(starts, d.start).line - 1;
      for (; line >= 0; line--) {
        if (directives.markUsed(line)) return true;
        var text = d.file.text.slice(starts[line], starts[line + 1]).trim();
        if (text !== "" && !/^\/\/.*$/.test(text)) return false;
      }
      return false;
    };
    var kept = diagnostics.filter(function (d) {
      return !silenced(d);
    });
    directives.getUnusedExpectations().forEach(function (expectation) {
      kept.push(
        ts.createDiagnosticForRange(file, expectation.range, ts.Diagnostics.Unused_ts_expect_error_directive)
      );
    });
    return kept;
  }

  // Checker `index`'s diagnostics (with the options and global diagnostics, which every
  // checker reports and the caller merges) and its counts.
  function report(index) {
    var own = state.checkers[index];
    keep(own, state.program.getOptionsDiagnostics());
    keep(own, own.checker.getGlobalDiagnostics());
    var relations = own.checker.getRelationCacheSizes();
    var relationCount = 0;
    Object.keys(relations).forEach(function (k) {
      relationCount += relations[k];
    });
    return JSON.stringify({
      diagnostics: own.diagnostics,
      sourceFiles: state.program.getSourceFiles().length,
      nodes: own.checker.getNodeCount(),
      symbols: own.checker.getSymbolCount(),
      types: own.checker.getTypeCount(),
      relations: relationCount,
      version: ts.version,
      options: state.options,
    });
  }

  // The options by name, as a tsconfig.json spells them.
  function describeOptions(options) {
    var named = {};
    Object.keys(options).forEach(function (k) {
      var v = options[k];
      if (k === "target") v = ts.ScriptTarget[v];
      else if (k === "module") v = ts.ModuleKind[v];
      else if (k === "moduleResolution") v = ts.ModuleResolutionKind[v];
      else if (k === "jsx") v = ts.JsxEmit[v];
      named[k] = v;
    });
    return named;
  }

  return {
    load: load,
    parse: parse,
    parsedAhead: parsedAhead,
    program: program,
    bindFile: bindFile,
    bind: bind,
    checker: checker,
    checkFile: checkFile,
    report: report,
    plain: plain,
  };
})();
if (typeof module !== "undefined" && module.exports) module.exports = checkbench;
