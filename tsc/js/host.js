// The tsc workload's compiler host and driver: runs after typescript.js has defined the
// global `ts`, under QuickJS (the workload) and under node (tsc/scripts/node-check.js, the
// reference run). Nothing here touches a file system: every file comes from the caller.
//
// checkbench.program(input) builds the program; checkbench.bind() makes the type checker
// (TypeScript binds every file there); checkbench.check(index, count) checks the root
// files index, index + count, ... and returns the diagnostics and counts as JSON.
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
    };
    if (roots.length > 0) options.paths = paths;
    return options;
  }

  function makeHost(files, libs) {
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

  // input: { files: {corpus path: text}, libs: {file name: text}, roots: [[module, path]],
  //          rootFiles: [corpus path, ...] }
  function program(input) {
    var files = {};
    Object.keys(input.files).forEach(function (path) {
      files[ROOT + path] = input.files[path];
    });
    var libs = {};
    Object.keys(input.libs).forEach(function (name) {
      libs[LIB_DIR + name] = input.libs[name];
    });
    var options = compilerOptions(input.roots);
    var host = makeHost(files, libs);
    var rootNames = input.rootFiles.map(function (path) {
      return ROOT + path;
    });
    state = {
      options: describeOptions(options),
      program: ts.createProgram({ rootNames: rootNames, options: options, host: host }),
      rootNames: rootNames,
      checker: null,
    };
    return state.program.getSourceFiles().length;
  }

  function bind() {
    state.checker = state.program.getTypeChecker();
    return state.program.getSymbolCount();
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
    };
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

  // The pre-emit diagnostics of the root files index, index + count, ... (the options and
  // global diagnostics too, which every checker reports and the caller merges).
  function check(index, count) {
    var program = state.program;
    var diagnostics = [];
    var push = function (list) {
      for (var i = 0; i < list.length; i++) diagnostics.push(record(list[i]));
    };
    push(program.getOptionsDiagnostics());
    for (var i = index; i < state.rootNames.length; i += count) {
      var file = program.getSourceFile(state.rootNames[i]);
      push(program.getSyntacticDiagnostics(file));
      push(program.getSemanticDiagnostics(file));
    }
    push(program.getGlobalDiagnostics());
    var relations = state.checker.getRelationCacheSizes();
    var relationCount = 0;
    Object.keys(relations).forEach(function (k) {
      relationCount += relations[k];
    });
    return JSON.stringify({
      diagnostics: diagnostics,
      sourceFiles: program.getSourceFiles().length,
      nodes: program.getNodeCount(),
      identifiers: program.getIdentifierCount(),
      symbols: program.getSymbolCount(),
      types: program.getTypeCount(),
      instantiations: program.getInstantiationCount(),
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

  return { program: program, bind: bind, check: check };
})();
if (typeof module !== "undefined" && module.exports) module.exports = checkbench;
